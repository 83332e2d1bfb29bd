import Foundation

/// The "Toy Story 5" production board from the seeds, for demos and first runs.
public enum SampleBoard {
    struct SampleTask {
        let title: String
        let notes: String
        let priority: Priority
        /// Days from today; nil for no due date.
        let dueInDays: Int?
        let list: String
    }

    static let lists: [(name: String, color: String, icon: String)] = [
        ("Story", "#FF6B6B", "book"),
        ("Animation", "#4ECDC4", "figure.walk"),
        ("Lighting", "#FFE66D", "lightbulb"),
        ("Sound", "#A8E6CF", "music.note"),
        ("Production", "#C3A6FF", "film"),
    ]

    static let tasks: [SampleTask] = [
        .init(title: "Write Act 2 outline", notes: "Woody discovers the toy museum subplot.", priority: .critical, dueInDays: -2, list: "Story"),
        .init(title: "Storyboard the inciting incident", notes: "Andy's college flashback sequence.", priority: .high, dueInDays: 3, list: "Story"),
        .init(title: "Rig Buzz Lightyear's wings", notes: "Needs new feather simulation for the opening scene.", priority: .high, dueInDays: 5, list: "Animation"),
        .init(title: "Animate crowd scene in toy store", notes: "At least 200 unique background toys.", priority: .medium, dueInDays: nil, list: "Animation"),
        .init(title: "Light the bedroom sequence", notes: "Warm sunset coming through the window.", priority: .medium, dueInDays: 10, list: "Lighting"),
        .init(title: "Compose Woody's theme variation", notes: "Needs a melancholy version for the farewell scene.", priority: .high, dueInDays: 7, list: "Sound"),
        .init(title: "Record foley for Pizza Planet truck", notes: "Engine sounds, door creaks.", priority: .low, dueInDays: nil, list: "Sound"),
        .init(title: "Lock final production budget", notes: "", priority: .critical, dueInDays: 1, list: "Production"),
    ]
}

extension Slate {
    /// Loads the sample production board. Idempotent: does nothing (and returns false)
    /// when the account has any list already.
    @discardableResult
    public func loadSampleBoard() throws -> Bool {
        guard try lists().isEmpty else { return false }
        let now = self.now
        let today = calendar.startOfDay(for: now)
        var listIDs: [String: UUID] = [:]
        let context = makeContext()
        for (index, sample) in SampleBoard.lists.enumerated() {
            let list = TaskList(accountID: accountID, name: sample.name, color: sample.color, icon: sample.icon,
                                order: Double(index + 1), created: now)
            listIDs[sample.name] = list.id
            context.insert(list)
        }
        for (index, sample) in SampleBoard.tasks.enumerated() {
            let due = sample.dueInDays.flatMap { calendar.date(byAdding: .day, value: $0, to: today) }
            // Created a second apart so "then by creation" has a stable, seeded order.
            let created = now.addingTimeInterval(Double(index - SampleBoard.tasks.count))
            var task = TaskItem(
                accountID: accountID, title: sample.title, notes: sample.notes, created: created,
                priority: sample.priority, listID: listIDs[sample.list], order: Double(index + 1))
            setDue(due.map { DueDate(date: $0, isAllDay: true) }, on: &task)
            context.insert(task)
        }
        try save(context, undoLabel: "Load the sample board")
        return true
    }
}

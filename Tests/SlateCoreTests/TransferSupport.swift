import Foundation
import SlateCore
import Testing

/// A small board that uses every field: two lists, an all-day repeating task with a
/// reminder and notes that need escaping, a timed subtask with a fractional order, a
/// completed task, an Inbox task with a long multi-byte title, a task at position 1.5.
struct TransferBoard {
    let story: TaskList
    let bigShoot: TaskList
    let outline: TaskItem
    let scene: TaskItem
    let budget: TaskItem
    let milk: TaskItem
    let poster: TaskItem
    let dialogue: TaskItem

    static let outlineNotes = "Woody; the museum, subplot\nSecond line with a \\ backslash"
    static let posterTitle = "Design the poster: café crème, Ünïcödé ☕️ and 🎬 emoji that run past seventy-five octets"

    init(_ slate: Slate, _ clock: TestClock) throws {
        story = try slate.createList(name: "Story", color: "#FF6B6B", icon: "book")
        bigShoot = try slate.createList(name: "Big Shoot", icon: "film")
        clock.advance(by: 60)
        let outline = try slate.addTask(TaskDraft(
            title: "Write Act 2 outline", notes: Self.outlineNotes, listID: story.id, priority: .critical,
            due: DueDate(date: date(2026, 11, 27), isAllDay: true), isFlagged: true, tags: ["writing", "act-2"],
            recurrence: Recurrence(.weekly, interval: 2), alerts: [TaskAlert(.beforeDue(seconds: 900))]))
        clock.advance(by: 61)
        let scene = try slate.addTask(TaskDraft(
            title: "Outline scene 3", listID: story.id, priority: .high,
            due: DueDate(date: date(2026, 12, 1, 9, 30), isAllDay: false), parentID: outline.id, alerts: [TaskAlert(.beforeDue(seconds: 3600))]))
        clock.advance(by: 62)
        var budget = try slate.addTask(TaskDraft(title: "Lock final production budget", listID: bigShoot.id, priority: .medium))
        milk = try slate.addTask(TaskDraft(title: "Buy milk", priority: .low, tags: ["home"]))
        poster = try slate.addTask(TaskDraft(title: Self.posterTitle, priority: .none))
        clock.advance(by: 3600)
        budget = try slate.setCompleted([budget.id], true)[0]
        // A fractional manual order: 1.5, between the outline (1) and the scene (2).
        let dialogue = try slate.addTask(TaskDraft(title: "Tighten dialogue", listID: story.id, priority: .none))
        try slate.moveTask(dialogue.id, before: scene.id)
        self.dialogue = try slate.task(id: dialogue.id).model
        self.outline = outline
        self.scene = scene
        self.budget = budget
    }
}

/// The account's tasks by number, with the account id blanked so that two databases compare.
func comparableTasks(_ slate: Slate) throws -> [TaskItem] {
    try slate.tasks().sorted { $0.number < $1.number }.map { task in
        var task = task
        task.accountID = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        return task
    }
}

/// Like `comparableTasks`, for formats that carry neither numbers nor list ids: numbers
/// are zeroed and each list id is replaced by the list's name (as a field the test reads).
func portableTasks(_ slate: Slate) throws -> [(task: TaskItem, list: String?)] {
    let names = Dictionary(uniqueKeysWithValues: try slate.lists().map { ($0.list.id, $0.list.name) })
    return try comparableTasks(slate).map { task in
        var task = task
        let list = task.listID.flatMap { names[$0] }
        task.number = 0
        task.listID = nil
        return (task, list)
    }
}

func comparableLists(_ slate: Slate) throws -> [TaskList] {
    try slate.lists().map(\.list).map { list in
        var list = list
        list.accountID = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        return list
    }
}

/// A fresh Slate whose clock reads the same as `clock`.
func makeSlate(at clock: TestClock) throws -> (Slate, TestClock) {
    let (slate, own) = try makeSlate()
    own.advance(by: clock.now.timeIntervalSince(own.now))
    return (slate, own)
}

/// Text as the tests write it: lines joined with CRLF (iCalendar) or LF.
func data(_ lines: [String], separator: String = "\n") -> Data {
    Data((lines.joined(separator: separator) + separator).utf8)
}

/// Runs an import that must fail; checks that the error is an ImportError and that the
/// database is exactly as it was (same export, same revision).
@discardableResult
func expectImportFails(_ slate: Slate, _ file: Data, format: TransferFormat?,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> ImportError? {
    let before = try slate.export(.json)
    let revision = try slate.revision()
    let error = #expect(throws: ImportError.self, sourceLocation: sourceLocation) {
        try slate.importData(file, format: format)
    }
    #expect(try slate.export(.json) == before, "the database is unchanged", sourceLocation: sourceLocation)
    #expect(try slate.revision() == revision, "nothing was committed", sourceLocation: sourceLocation)
    return error
}

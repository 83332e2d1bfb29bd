import Foundation
import SlateStore

/// The numbers behind the statistics screen.
public struct Statistics: Sendable, Hashable, Codable {
    public var total: Int
    public var active: Int
    public var completed: Int
    public var completedToday: Int
    public var overdue: Int
    /// Active tasks per priority (every priority present, zeros included).
    public var activeByPriority: [Priority: Int]
    /// Per list (nil id: the Inbox): active and total tasks.
    public var byList: [ListCount]
    /// Mean time from creation to completion, in seconds; nil when nothing is completed.
    public var meanTimeToComplete: TimeInterval?
    /// Completions per local day over the last 28 days, oldest first, today last.
    public var completionsPerDay: [DayCount]

    public struct ListCount: Sendable, Hashable, Codable {
        public var listID: UUID?
        public var name: String
        public var color: String?
        public var active: Int
        public var total: Int
    }

    public struct DayCount: Sendable, Hashable, Codable {
        /// The start of the local day.
        public var day: Date
        public var count: Int
    }
}

extension Slate {
    /// Counts and trends over the account's tasks, as of now.
    public func statistics(days: Int = 28) throws -> Statistics {
        // About nine queries: one snapshot, so that the numbers add up while others write.
        try snapshot { try readStatistics(days: days) }
    }

    private func readStatistics(days: Int) throws -> Statistics {
        let now = self.now
        let startOfToday = calendar.startOfDay(for: now)
        let accountID = self.accountID
        let context = makeContext()
        let mine = #Predicate<TaskItem> { $0.accountID == accountID }
        func count(_ filters: [Predicate<TaskItem>]) throws -> Int {
            var descriptor = FetchDescriptor<TaskItem>(predicate: mine)
            descriptor.filters = filters
            return try context.fetchCount(descriptor)
        }
        let total = try count([])
        let completed = try count([#Predicate { $0.isCompleted }])
        let completedToday = try count([#Predicate { $0.isCompleted && $0.completedAt != nil && $0.completedAt! >= startOfToday }])
        let overdue = try count([TaskQuery.overdue(now: now, calendar: calendar)])

        var activeDescriptor = FetchDescriptor<TaskItem>(predicate: mine)
        activeDescriptor.filters = [#Predicate { !$0.isCompleted }]
        let byPriority = try context.fetchCounts(activeDescriptor, groupedBy: \.priority)
        let activeByList = try context.fetchCounts(activeDescriptor, groupedBy: \.listID)
        let totalByList = try context.fetchCounts(FetchDescriptor<TaskItem>(predicate: mine), groupedBy: \.listID)
        var byList = try lists().map {
            Statistics.ListCount(listID: $0.list.id, name: $0.list.name, color: $0.list.color,
                                 active: activeByList[$0.list.id] ?? 0, total: totalByList[$0.list.id] ?? 0)
        }
        let inboxTotal = totalByList[nil] ?? 0
        if inboxTotal > 0 {
            byList.append(.init(listID: nil, name: "Inbox", color: nil, active: activeByList[nil] ?? 0, total: inboxTotal))
        }

        var completedDescriptor = FetchDescriptor<TaskItem>(predicate: mine)
        completedDescriptor.filters = [#Predicate { $0.isCompleted && $0.completedAt != nil }]
        let done = try context.fetch(completedDescriptor)
        let durations = done.compactMap { task in task.completedAt.map { max(0, $0.timeIntervalSince(task.created)) } }
        let mean = durations.isEmpty ? nil : durations.reduce(0, +) / Double(durations.count)

        let firstDay = calendar.date(byAdding: .day, value: -(days - 1), to: startOfToday) ?? startOfToday
        var perDay: [Date: Int] = [:]
        for task in done {
            guard let completedAt = task.completedAt, completedAt >= firstDay else { continue }
            perDay[calendar.startOfDay(for: completedAt), default: 0] += 1
        }
        let series = (0..<days).compactMap { offset -> Statistics.DayCount? in
            guard let day = calendar.date(byAdding: .day, value: offset, to: firstDay) else { return nil }
            return Statistics.DayCount(day: day, count: perDay[day] ?? 0)
        }

        return Statistics(
            total: total, active: total - completed, completed: completed, completedToday: completedToday,
            overdue: overdue,
            activeByPriority: Dictionary(uniqueKeysWithValues: Priority.allCases.map { ($0, byPriority[$0] ?? 0) }),
            byList: byList, meanTimeToComplete: mean, completionsPerDay: series)
    }
}

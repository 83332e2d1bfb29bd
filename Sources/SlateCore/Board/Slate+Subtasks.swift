import Foundation
import SlateStore

/// How many subtasks a task has: what a row shows before it is expanded.
public struct SubtaskCount: Sendable, Hashable {
    /// Not completed.
    public var active: Int
    /// All of them, completed or not.
    public var total: Int

    public init(active: Int, total: Int) {
        self.active = active
        self.total = total
    }

    /// No subtasks.
    public static let zero = SubtaskCount(active: 0, total: 0)
}

extension Slate {
    /// The direct subtasks' counts of each of `parents` that has any (absent: none).
    /// One grouped, indexed read; a second only when some parent has subtasks.
    public func subtaskCounts(of parents: [UUID]) throws -> [UUID: SubtaskCount] {
        guard !parents.isEmpty else { return [:] }
        let accountID = self.accountID
        let wanted: [UUID?] = parents
        let context = makeContext()
        return try translatingErrors {
            let totals = try context.fetchCounts(
                FetchDescriptor<TaskItem>(predicate: #Predicate { $0.accountID == accountID && wanted.contains($0.parentID) }),
                groupedBy: \.parentID)
            guard !totals.isEmpty else { return [:] }
            let active = try context.fetchCounts(
                FetchDescriptor<TaskItem>(predicate: #Predicate {
                    $0.accountID == accountID && $0.isCompleted == false && wanted.contains($0.parentID)
                }),
                groupedBy: \.parentID)
            var counts: [UUID: SubtaskCount] = [:]
            for (parent, total) in totals {
                guard let parent else { continue }
                counts[parent] = SubtaskCount(active: active[parent] ?? 0, total: total)
            }
            return counts
        }
    }
}

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
    /// The direct subtasks' counts of each of `parents` that has any (absent: none):
    /// one grouped, indexed read.
    public func subtaskCounts(of parents: [UUID]) throws -> [UUID: SubtaskCount] {
        guard !parents.isEmpty else { return [:] }
        let counts = try translatingErrors {
            try makeContext().countChildren(TaskItem.self, by: \.parentID, among: parents, partition: accountID, unset: \.isCompleted)
        }
        return counts.mapValues { SubtaskCount(active: $0.unset, total: $0.total) }
    }
}

import Foundation
import SlateStore

extension TaskRules {
    /// The deepest a subtask may sit: a task without a parent is level 1, its subtask
    /// level 2, and so on down to this level. Every surface that sets a parent (creating a
    /// subtask, moving a task under another, importing) keeps to it, so no walk over a
    /// task's ancestors or subtasks goes further, and no parent cycle can be stored.
    public static let maximumSubtaskDepth = 16

    static func subtaskTooDeep(field: String) -> SlateError {
        .invalid(field: field, message: "Subtasks can be at most \(maximumSubtaskDepth) levels deep (a task without a parent is level 1); this parent would put a subtask deeper.")
    }

    static func parentCycle(field: String) -> SlateError {
        .invalid(field: field, message: "A task cannot be a subtask of itself or of its own subtasks.")
    }
}

extension Slate {
    /// Checks that the task `id` (nil: a new task) may become a subtask of `parentID`: the
    /// parent is in this account, is neither the task nor one of its subtasks, and the
    /// task with all its subtasks stays within `TaskRules.maximumSubtaskDepth`.
    ///
    /// Both walks stop at the depth limit, so stored data that is deeper than the limit (or
    /// even cyclic, from before the limit) is refused rather than followed.
    func checkParent(_ parentID: UUID, for id: UUID?, field: String = "parentID") throws {
        let parentLevel = try level(ofTask: parentID, below: id, field: field)
        guard parentLevel < TaskRules.maximumSubtaskDepth else { throw TaskRules.subtaskTooDeep(field: field) }
        if let id { try checkSubtasks(of: id, at: parentLevel + 1, notContaining: parentID, field: field) }
    }

    /// The level of a stored task (1: no parent), walking up at most the depth limit;
    /// refuses when `below` (a task about to go under it) is one of its ancestors or itself.
    func level(ofTask id: UUID, below: UUID?, field: String) throws -> Int {
        var level = 0
        var current: UUID? = id
        while let ancestor = current {
            if ancestor == below { throw TaskRules.parentCycle(field: field) }
            level += 1
            guard level <= TaskRules.maximumSubtaskDepth else { throw TaskRules.subtaskTooDeep(field: field) }
            current = try task(id: ancestor).model.parentID
        }
        return level
    }

    /// Checks that the stored subtasks of `id`, with `id` at `level`, stay within the
    /// limit, and that `parentID` (its new parent) is not among them. Level by level, at
    /// most the depth limit deep.
    func checkSubtasks(of id: UUID, at level: Int, notContaining parentID: UUID, field: String) throws {
        let accountID = self.accountID
        let context = makeContext()
        var frontier = [id]
        var level = level
        while !frontier.isEmpty {
            var next: [UUID] = []
            for parent in frontier {
                let optionalParent: UUID? = parent
                let children = try translatingErrors {
                    try context.fetch(FetchDescriptor<TaskItem>(
                        predicate: #Predicate { $0.accountID == accountID && $0.parentID == optionalParent }))
                }
                for child in children {
                    if child.id == parentID { throw TaskRules.parentCycle(field: field) }
                    next.append(child.id)
                }
            }
            guard next.isEmpty || level < TaskRules.maximumSubtaskDepth else { throw TaskRules.subtaskTooDeep(field: field) }
            level += 1
            frontier = next
        }
    }
}

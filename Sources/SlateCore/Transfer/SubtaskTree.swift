import Foundation
import SlateStore

/// The subtask tree an import will leave: the file's parents for the tasks it holds, the
/// stored parents for the others. Checks that no task sits deeper than
/// `TaskRules.maximumSubtaskDepth` and that no parent chain is a cycle, walking at most
/// that many levels from any task (so stored data that is deeper, or cyclic, is refused
/// rather than followed).
struct SubtaskTree {
    let context: ModelContext
    let accountID: UUID
    /// The tasks the file holds.
    let fileIDs: Set<UUID>
    /// The parent of each task in the file (absent: no parent).
    let fileParents: [UUID: UUID]
    /// Levels worked out so far (1: no parent).
    private var levels: [UUID: Int] = [:]
    /// Stored parents looked up so far.
    private var storedParents: [UUID: UUID?] = [:]

    init(context: ModelContext, accountID: UUID, fileIDs: Set<UUID>, fileParents: [UUID: UUID]) {
        self.context = context
        self.accountID = accountID
        self.fileIDs = fileIDs
        self.fileParents = fileParents
        for id in fileIDs where fileParents[id] == nil { levels[id] = 1 }
    }

    /// The level of a task (1: no parent), or an error when its chain of parents is deeper
    /// than the limit or comes back to a task on it.
    mutating func level(of id: UUID, field: String) throws -> Int {
        var path: [UUID] = []
        var onPath: Set<UUID> = []
        var current: UUID? = id
        var base = 0
        while let task = current {
            if let known = levels[task] {
                base = known
                break
            }
            guard onPath.insert(task).inserted else { throw TaskRules.parentCycle(field: field) }
            path.append(task)
            guard path.count <= TaskRules.maximumSubtaskDepth else { throw TaskRules.subtaskTooDeep(field: field) }
            current = try parent(of: task)
        }
        guard base + path.count <= TaskRules.maximumSubtaskDepth else { throw TaskRules.subtaskTooDeep(field: field) }
        for (offset, task) in path.reversed().enumerated() { levels[task] = base + offset + 1 }
        return levels[id]!
    }

    /// Checks the stored subtasks of a task the file updates (those the file does not move
    /// elsewhere): at their new levels they must stay within the limit.
    mutating func checkStoredSubtasks(of id: UUID, field: String) throws {
        var frontier = [id]
        var level = try self.level(of: id, field: field)
        let accountID = self.accountID
        while !frontier.isEmpty {
            var next: [UUID] = []
            for parent in frontier {
                let optionalParent: UUID? = parent
                let children = try context.fetch(FetchDescriptor<TaskItem>(
                    predicate: #Predicate { $0.accountID == accountID && $0.parentID == optionalParent }))
                // A child the file holds has its parent from the file, checked on its own.
                next += children.map(\.id).filter { !fileIDs.contains($0) }
            }
            guard next.isEmpty || level < TaskRules.maximumSubtaskDepth else { throw TaskRules.subtaskTooDeep(field: field) }
            level += 1
            frontier = next
        }
    }

    private mutating func parent(of id: UUID) throws -> UUID? {
        if fileIDs.contains(id) { return fileParents[id] }
        if let known = storedParents[id] { return known }
        let parent = try context.model(TaskItem.self, id: id).flatMap { $0.accountID == accountID ? $0.parentID : nil }
        storedParents[id] = parent
        return parent
    }
}

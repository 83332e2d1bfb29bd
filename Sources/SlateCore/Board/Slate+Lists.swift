import Foundation
import SlateStore

/// A list with its number of active tasks, as the sidebar shows it.
public struct ListSummary: Sendable, Hashable {
    public let list: TaskList
    /// Tasks in the list that are not completed.
    public let activeCount: Int
    /// The list's revision, for ETags and conflict checks.
    public let revision: Int
}

/// What happens to a list's tasks when the list is deleted.
public enum ListDeletion: String, Sendable, CaseIterable {
    /// The tasks stay, in the Inbox (as the production tracker's departments do).
    case keepTasks = "keep"
    /// The tasks are deleted with the list (as a Reminders list is).
    case deleteTasks = "delete"
}

/// The order lists are shown in.
public enum ListSort: String, Sendable, CaseIterable {
    case manual, name
}

extension Slate {
    /// The account's lists with their active counts.
    public func lists(sortedBy sort: ListSort = .manual) throws -> [ListSummary] {
        let accountID = self.accountID
        let context = makeContext()
        let keys: [SortKey<TaskList>] = sort == .manual ? [.ascending(\.order), .ascending(\.created)] : []
        var lists = try context.fetchRevisioned(
            FetchDescriptor(predicate: #Predicate<TaskList> { $0.accountID == accountID }, sortKeys: keys))
        if sort == .name {
            lists.sort { $0.model.name.localizedStandardCompare($1.model.name) == .orderedAscending }
        }
        let counts = try context.fetchCounts(
            FetchDescriptor(predicate: #Predicate<TaskItem> { $0.accountID == accountID && $0.isCompleted == false && $0.listID != nil }),
            groupedBy: \.listID)
        return lists.map { ListSummary(list: $0.model, activeCount: counts[$0.model.id] ?? 0, revision: $0.revision) }
    }

    /// The account's lists by id, without counting their tasks (which reads every active
    /// task): for showing list names and colours beside tasks.
    public func listsByID() throws -> [UUID: TaskList] {
        Dictionary(uniqueKeysWithValues: try listsWithoutCounts().map { ($0.id, $0) })
    }

    /// The account's lists in the manual order, without counting their tasks (which
    /// reads every active task): for showing list names and colours beside tasks.
    public func listsWithoutCounts() throws -> [TaskList] {
        var descriptor = FetchDescriptor<TaskList>(sortKeys: [.ascending(\.order), .ascending(\.created)])
        descriptor.where(\.accountID, is: accountID)
        return try makeContext().fetch(descriptor)
    }

    /// The list named `name` (ignoring case and surrounding spaces), or nil.
    public func list(named name: String) throws -> TaskList? {
        // A name holds no line break (`TaskRules`), so trimming them too changes nothing, and
        // this trim reaches for NSString only when an end needs it (770,000 instructions the
        // first time in a process: `slate add … #List` asks for every add).
        let wanted = TaskRules.trimmedWhitespace(name).lowercased()
        return try listsWithoutCounts().first { $0.name.lowercased() == wanted }
    }

    /// The list with `id` in this account, or an error naming it.
    public func list(id: UUID) throws -> Revisioned<TaskList> {
        guard let found = try makeContext().revisioned(TaskList.self, id: id), found.model.accountID == accountID else {
            throw SlateError.notFound("list with id \(id)")
        }
        return found
    }

    /// The list named `name`, or an error that suggests the closest name.
    public func requireList(named name: String) throws -> TaskList {
        if let list = try list(named: name) { return list }
        let names = try listsWithoutCounts().map(\.name)
        if let guess = Suggestion.closest(to: name, in: names) {
            throw SlateError.notFound("list named \"\(name)\" — did you mean \"\(guess)\"?")
        }
        throw SlateError.notFound("list named \"\(name)\"")
    }

    /// Creates a list at the end of the manual order.
    @discardableResult
    public func createList(name: String, color: String? = nil, icon: String? = nil) throws -> TaskList {
        let name = try TaskRules.validListName(name)
        let color = try color.map(TaskRules.validColor) ?? TaskList.defaultColor
        let icon = try icon.map(TaskRules.validIcon) ?? TaskList.defaultIcon
        let existing = try listsWithoutCounts()
        // Named as the list that has it, not as typed ("Story", asked for "story").
        if let clash = existing.first(where: { $0.name.lowercased() == name.lowercased() }) {
            throw SlateError.duplicateListName(clash.name)
        }
        let order = (existing.map(\.order).max() ?? 0) + 1
        let list = TaskList(accountID: accountID, name: name, color: color, icon: icon, order: order, created: now)
        let context = makeContext()
        context.insert(list)
        try save(context, undoLabel: "Add list “\(name)”")
        return list
    }

    /// Renames, recolours or changes the icon of a list; nil leaves a field as it is.
    /// With `expectedRevision`, refuses (`SlateError.conflict`) when the list changed since;
    /// without, a change that lands between this read and the save is kept and only the
    /// given fields are applied on top of it.
    @discardableResult
    public func updateList(_ id: UUID, name: String? = nil, color: String? = nil, icon: String? = nil,
                           expectedRevision: Int? = nil) throws -> TaskList {
        try retryingConflicts(unless: expectedRevision) {
            let read = try self.list(id: id)
            var list = read.model
            if let name {
                let valid = try TaskRules.validListName(name)
                if let clash = try listsWithoutCounts().first(where: { $0.id != id && $0.name.lowercased() == valid.lowercased() }) {
                    throw SlateError.duplicateListName(clash.name)
                }
                list.name = valid
            }
            if let color { list.color = try TaskRules.validColor(color) }
            if let icon { list.icon = try TaskRules.validIcon(icon) }
            let context = makeContext()
            context.update(list, expectedRevision: expectedRevision ?? read.revision)
            try save(context, undoLabel: "Edit list “\(list.name)”")
            return list
        }
    }

    /// Moves a list before another one in the manual order (nil: to the end). Writes only
    /// the order (a rename that lands meanwhile is kept); renumbers the lists in the same
    /// change when the gap is too small to split.
    public func moveList(_ id: UUID, before otherID: UUID?) throws {
        try retryingConflicts {
            let accountID = self.accountID
            let ordered = try makeContext().fetchRevisioned(FetchDescriptor(
                predicate: #Predicate<TaskList> { $0.accountID == accountID }, sortKeys: [.ascending(\.order), .ascending(\.created)]))
            guard let read = ordered.first(where: { $0.model.id == id }) else { throw SlateError.notFound("list with id \(id)") }
            let others = ordered.filter { $0.model.id != id }
            let placement = try Ordering.placement(before: otherID, in: others.map { ($0.model.id, $0.model.order) }, what: "list")
            var moving = read.model
            moving.order = placement.position
            let context = makeContext()
            context.update(moving, expectedRevision: read.revision)
            for other in others {
                guard let position = placement.renumbered[other.model.id] else { continue }
                var renumbered = other.model
                renumbered.order = position
                context.update(renumbered, expectedRevision: other.revision)
            }
            try save(context, undoLabel: "Move list “\(moving.name)”")
        }
    }

    /// Deletes a list; its tasks go with it or stay in the Inbox, as the caller chooses.
    public func deleteList(_ id: UUID, tasks: ListDeletion, expectedRevision: Int? = nil) throws {
        let list = try self.list(id: id).model
        let context = makeContext()
        if tasks == .deleteTasks {
            let accountID = self.accountID
            try context.delete(model: TaskItem.self, where: #Predicate { $0.accountID == accountID && $0.listID == id })
        }
        context.delete(list, expectedRevision: expectedRevision)
        try save(context, undoLabel: "Delete list “\(list.name)”")
    }
}

import Foundation
import SlateStore

/// Which Slate list a calendar collection is.
public enum CalendarCollectionID: Hashable, Sendable {
    /// Tasks without a list.
    case inbox
    case list(UUID)

    var listID: UUID? {
        if case .list(let id) = self { return id }
        return nil
    }
}

/// A list as a CalDAV calendar collection.
public struct CalendarCollectionInfo: Sendable, Hashable {
    public let id: CalendarCollectionID
    /// The address segment: `inbox`, the name a client chose, or the list's id.
    public let name: String
    public let displayName: String
    /// `#RRGGBB`, or the `#RRGGBBAA` a client set when it still matches the list's colour.
    public let color: String
    public let order: Double
}

extension Slate {
    /// The segment of the Inbox collection.
    public static let inboxCollectionName = "inbox"

    /// A number that changes whenever a commit touches a list or a collection's name (all
    /// that `calendarCollection(named:)` reads), in any account; nil while another
    /// process's change has not been seen yet, when nothing read may be kept. Tasks'
    /// changes leave it: what a collection's address names outlives them.
    public func calendarCollectionsStamp() throws -> Int? {
        try translatingErrors { try container.changeStamp(of: [TaskList.self, CalendarCollection.self]) }
    }

    /// The Inbox and every list, in the manual order.
    public func calendarCollections() throws -> [CalendarCollectionInfo] {
        let accountID = self.accountID
        let rows = try makeContext().fetch(FetchDescriptor<CalendarCollection>(predicate: #Predicate { $0.accountID == accountID }))
        let byList = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let inbox = CalendarCollectionInfo(id: .inbox, name: Self.inboxCollectionName, displayName: "Inbox",
                                           color: TaskList.defaultColor, order: 0)
        return [inbox] + (try listsWithoutCounts()).map { info(for: $0, row: byList[$0.id]) }
    }

    private func info(for list: TaskList, row: CalendarCollection?) -> CalendarCollectionInfo {
        CalendarCollectionInfo(id: .list(list.id), name: row?.name ?? list.id.uuidString.lowercased(), displayName: list.name,
                               color: list.color, order: list.order)
    }

    /// The collection addressed by `name`, or nil.
    public func calendarCollection(named name: String) throws -> CalendarCollectionInfo? {
        if name == Self.inboxCollectionName { return try calendarCollections().first }
        let accountID = self.accountID
        let context = makeContext()
        if let row = try context.fetch(FetchDescriptor<CalendarCollection>().matching(\.accountID, is: accountID).matching(\.name, is: name)).first {
            return try? info(for: list(id: row.id).model, row: row)
        }
        guard let id = UUID(idText: name), let list = try? list(id: id).model else { return nil }
        let row = try context.model(CalendarCollection.self, id: id)
        return row == nil ? info(for: list, row: nil) : nil
    }

    /// Creates a list for a new collection named `name` (MKCALENDAR, Extended MKCOL). A
    /// display name already taken by another list gets a number (`Work 2`).
    public func createCalendarCollection(named name: String, displayName: String?, color: String?, order: Double?) throws -> CalendarCollectionInfo {
        guard Self.isValidSegment(name), name != Self.inboxCollectionName else {
            throw CalendarObjectError.forbidden("A collection name is 1 to \(CalendarLimits.maximumNameLength) bytes without '/', and not 'inbox'; got '\(name.prefix(80))'.")
        }
        guard try calendarCollection(named: name) == nil else {
            throw CalendarObjectError.forbidden("A collection named '\(name)' exists already.")
        }
        let wanted = try calendarText { try TaskRules.validListName(displayName.flatMap { $0.isEmpty ? nil : $0 } ?? name) }
        let validColor = try color.map { value in try calendarText { try TaskRules.validColor(String(value.prefix(7))) } }
        let taken = Set(try listsWithoutCounts().map { $0.name.lowercased() })
        var listName = wanted
        var number = 2
        while taken.contains(listName.lowercased()) {
            listName = "\(wanted.prefix(TaskRules.maximumListNameLength - 6)) \(number)"
            number += 1
        }
        let list = try createList(name: listName, color: validColor)
        let context = makeContext(undo: false)
        let accountID = self.accountID
        // A row left by a deleted list with the same name gives way.
        try context.delete(model: CalendarCollection.self, where: #Predicate { $0.accountID == accountID && $0.name == name })
        context.insert(CalendarCollection(id: list.id, accountID: accountID, name: name))
        if let order {
            var moved = list
            moved.order = order
            context.update(moved)
        }
        try translatingErrors { try context.save() }
        return try calendarCollection(named: name) ?? info(for: list, row: nil)
    }

    /// Renames, recolours or reorders a list from a collection's properties.
    public func updateCalendarCollection(_ id: CalendarCollectionID, displayName: String?, color: String?, order: Double?) throws {
        guard let listID = id.listID else {
            throw CalendarObjectError.forbidden("The Inbox cannot be renamed, recoloured or moved.")
        }
        if displayName != nil || color != nil {
            _ = try calendarText {
                try updateList(listID, name: displayName, color: color.map { String($0.prefix(7)) })
            }
        }
        if let order {
            var list = try self.list(id: listID).model
            list.order = order
            let context = makeContext()
            context.update(list)
            try translatingErrors { try context.save(undoLabel: "Move list “\(list.name)”") }
        }
    }

    /// Deletes a list and its tasks (as deleting a calendar does in every client).
    public func deleteCalendarCollection(_ id: CalendarCollectionID) throws {
        guard let listID = id.listID else { throw CalendarObjectError.forbidden("The Inbox cannot be deleted.") }
        try deleteList(listID, tasks: .deleteTasks)
    }

    /// A segment a client may choose: not empty, no slash, bounded.
    static func isValidSegment(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= CalendarLimits.maximumNameLength && !name.contains("/")
            && name != "." && name != ".." && !name.unicodeScalars.contains { $0.value < 0x20 }
    }

    /// Runs a rule check, turning its error into invalid data for the client.
    func calendarText<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SlateError {
            switch error {
            case .invalid, .duplicateListName: throw CalendarObjectError.forbidden(error.description)
            default: throw error
            }
        }
    }
}

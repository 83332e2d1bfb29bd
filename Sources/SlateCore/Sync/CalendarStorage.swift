import Foundation
import SlateStore

/// The resource a CalDAV client stored for a task: its name and UID. Its bytes live in a
/// ``CalendarResourceBody`` of the same id, so that listings read only these small rows.
///
/// One per task, with the same id as the task. The row outlives its task on purpose: a
/// deleted task's resource name is what a later sync reports as gone (tombstones keep ids
/// only). A new resource stored under the same name replaces such a row.
public struct CalendarResource: Codable, Sendable, Identifiable, Hashable {
    /// The task's id.
    public var id: UUID
    public var accountID: UUID
    /// The last segment of the resource's address (`3F2A….ics`), as the client chose it.
    public var name: String
    /// The VTODO's UID.
    public var uid: String
    /// The UID its RELATED-TO names as parent, if any: a child stored before its parent is
    /// linked when the parent arrives.
    public var parentUID: String?

    public init(id: UUID, accountID: UUID, name: String, uid: String, parentUID: String? = nil) {
        self.id = id
        self.accountID = accountID
        self.name = name
        self.uid = uid
        self.parentUID = parentUID
    }
}

/// The bytes a CalDAV client stored for a task, kept exactly, and the task they describe.
public struct CalendarResourceBody: Codable, Sendable, Identifiable, Hashable {
    /// The task's id.
    public var id: UUID
    public var accountID: UUID
    /// What the client sent, exactly (a fold may even split a UTF-8 character).
    public var data: Data
    /// `basis` as stored (JSON), read only when a task differs from it.
    var basisJSON: String
    /// `VTodoRendering.stamp` of `basis`: a task with the same stamp is served as `data`
    /// without reading `basis` (nil for bodies stored before the stamp existed).
    var basisStamp: String?

    /// The task as it was when `data` was stored: a task still equal to it is served as
    /// `data`; a field that differs is rewritten in the served copy, and nothing else.
    public var basis: TaskItem {
        get { (try? JSONDecoder().decode(TaskItem.self, from: Data(basisJSON.utf8))) ?? Self.unreadable(id, accountID) }
        set {
            basisJSON = newValue.basisJSON
            basisStamp = VTodoRendering.stamp(newValue)
        }
    }

    public init(id: UUID, accountID: UUID, data: Data, basis: TaskItem) {
        self.id = id
        self.accountID = accountID
        self.data = data
        self.basisJSON = basis.basisJSON
        self.basisStamp = VTodoRendering.stamp(basis)
    }

    /// True when `task` is still what the client stored (so `data` is served as it is).
    func isUnchanged(_ task: TaskItem) -> Bool { basisStamp != nil && basisStamp == VTodoRendering.stamp(task) }

    /// A basis that cannot be read compares unequal in every field, so every field is rewritten.
    private static func unreadable(_ id: UUID, _ accountID: UUID) -> TaskItem {
        TaskItem(id: id, accountID: accountID, title: "", created: Date(timeIntervalSince1970: 0))
    }
}

/// The address segment a CalDAV client chose for a list it created (MKCALENDAR, Extended
/// MKCOL). Lists without one are addressed by their id.
public struct CalendarCollection: Codable, Sendable, Identifiable, Hashable {
    /// The list's id.
    public var id: UUID
    public var accountID: UUID
    /// The collection's segment, unique per account.
    public var name: String

    public init(id: UUID, accountID: UUID, name: String) {
        self.id = id
        self.accountID = accountID
        self.name = name
    }
}

/// How far back the names of deleted resources have been forgotten, per account (see
/// `Slate.pruneRemovedNames`).
public struct CalendarSyncMark: Codable, Sendable, Identifiable, Hashable {
    /// The account's id.
    public var id: UUID
    public var accountID: UUID
    /// Names of tasks deleted at or before this revision are gone.
    public var prunedThrough: Int
}

extension CalendarSyncMark: PersistentModel {
    public static let schema = ModelSchema<CalendarSyncMark>(
        table: "calendar_sync_marks",
        columns: [.column(\.prunedThrough, "prunedThrough")],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        partition: "accountID"
    )
}

/// A task that is one completed (or once completed) occurrence of a repeating task whose
/// client keeps occurrences as RECURRENCE-ID overrides in the series' resource (Thunderbird,
/// jtx Board). It is served inside that resource, never as a resource of its own.
public struct CalendarOccurrence: Codable, Sendable, Identifiable, Hashable {
    /// The occurrence's task id.
    public var id: UUID
    public var accountID: UUID
    /// The repeating task whose resource holds the override.
    public var seriesID: UUID
    /// The override's RECURRENCE-ID as `VTodoOverride.key` writes it.
    public var recurrenceKey: String
    /// The task as it was when the client stored the override: a field that differs since is
    /// rewritten in the override's lines, and nothing else.
    public var basis: TaskItem
}

extension CalendarOccurrence: PersistentModel {
    public static let schema = ModelSchema<CalendarOccurrence>(
        table: "calendar_occurrences",
        columns: [.column(\.seriesID, "seriesID"), .column(\.recurrenceKey, "recurrenceKey"), .json(\.basis, "basis")],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        indexes: [Index("calendar_occurrences_by_series", on: ["accountID", "seriesID"])],
        partition: "accountID"
    )
}

extension CalendarResource: PersistentModel {
    public static let schema = ModelSchema<CalendarResource>(
        table: "calendar_resources",
        columns: [.column(\.name, "name"), .column(\.uid, "uid"), .column(\.parentUID, "parentUID")],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        indexes: [Index("calendar_resources_by_name", on: ["accountID", "name"]), Index("calendar_resources_by_uid", on: ["accountID", "uid"]),
                  Index("calendar_resources_by_parent", on: ["accountID", "parentUID"])],
        partition: "accountID"
    )
}

extension CalendarResourceBody: PersistentModel {
    public static let schema = ModelSchema<CalendarResourceBody>(
        table: "calendar_resource_bodies",
        columns: [.column(\.data, "data"), .column(\.basisJSON, "basis"), .column(\.basisStamp, "basisStamp")],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        partition: "accountID"
    )
}

extension CalendarCollection: PersistentModel {
    public static let schema = ModelSchema<CalendarCollection>(
        table: "calendar_collections",
        columns: [.column(\.name, "name")],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        indexes: [Index("calendar_collections_by_name", on: ["accountID", "name"], unique: true)],
        partition: "accountID"
    )
}

/// Listings read every stored resource of the account: column by column, not through
/// `Decodable` (the Codable path was most of a PROPFIND's cost at 10,000 tasks).
extension CalendarResource: RowReadable {
    private struct Positions {
        let id, accountID, name, uid, parentUID: Int32

        init(_ schema: ModelSchema<CalendarResource>) {
            func at(_ name: String) -> Int32 { StoredRow.position(of: name, in: schema) }
            (id, accountID, name, uid, parentUID) = (at("id"), at("accountID"), at("name"), at("uid"), at("parentUID"))
        }
    }

    private static let positions = Positions(schema)

    public init(row: StoredRow) throws {
        let at = Self.positions
        self.init(id: try row.uuid(at.id), accountID: try row.uuid(at.accountID), name: try row.string(at.name),
                  uid: try row.string(at.uid), parentUID: try row.optionalValue(at.parentUID))
    }
}

/// Bodies are read for every object of an answer: column by column, and without decoding
/// `basis` (JSON) unless a task differs from it.
extension CalendarResourceBody: RowReadable {
    private struct Positions {
        let id, accountID, data, basis, basisStamp: Int32

        init(_ schema: ModelSchema<CalendarResourceBody>) {
            func at(_ name: String) -> Int32 { StoredRow.position(of: name, in: schema) }
            (id, accountID, data, basis, basisStamp) = (at("id"), at("accountID"), at("data"), at("basis"), at("basisStamp"))
        }
    }

    private static let positions = Positions(schema)

    public init(row: StoredRow) throws {
        let at = Self.positions
        id = try row.uuid(at.id)
        accountID = try row.uuid(at.accountID)
        data = try row.value(at.data)
        basisJSON = try row.string(at.basis)
        basisStamp = try row.optionalValue(at.basisStamp)
    }
}

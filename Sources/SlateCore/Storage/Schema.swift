import Foundation
import SlateStore

// How the task domain is stored. The models know nothing about storage; these
// extensions map them to SlateStore tables.

extension Account: PersistentModel {
    public static let schema = ModelSchema<Account>(
        table: "accounts",
        columns: [.column(\.name, "name"), .column(\.created, "created"), .column(\.timeZone, "timeZone")],
        indexes: [Index("accounts_by_name", on: [.caseInsensitive("name")], unique: true)]
    )
}

extension TaskList: PersistentModel {
    public static let schema = ModelSchema<TaskList>(
        table: "lists",
        columns: [
            .column(\.name, "name"), .column(\.color, "color"), .column(\.icon, "icon"),
            .column(\.order, "order"), .column(\.created, "created"),
        ],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        indexes: [Index("lists_by_name", on: ["accountID", .caseInsensitive("name")], unique: true)],
        partition: "accountID"
    )
}

extension Recurrence: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(storageValue) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Recurrence? {
        String.fromDatabaseValue(value).flatMap(Recurrence.init(storageValue:))
    }
    public static var columnType: ColumnType { .text }
}

extension TaskItem: PersistentModel {
    public static let schema = ModelSchema<TaskItem>(
        table: "tasks",
        columns: [
            .sequence(\.number, "number"), .column(\.title, "title"), .column(\.notes, "notes"),
            .column(\.isCompleted, "isCompleted"), .column(\.completedAt, "completedAt"),
            .column(\.created, "created"), .column(\.modified, "modified"), .column(\.due, "due"),
            .column(\.isAllDay, "isAllDay"), .column(\.dueDay, "dueDay"), .column(\.priority, "priority"), .column(\.isFlagged, "isFlagged"),
            .column(\.order, "order"), .json(\.tags, "tags"), .column(\.recurrence, "recurrence"),
            .column(\.titleSortKey, "titleSortKey", default: ""),
            .json(\.alerts, "alerts", default: []),
            .column(\.sameFields, "sameFields", default: SameFields.none),
        ],
        references: [
            .reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade),
            .reference(\.listID, "listID", to: TaskList.self, onDelete: .nullify),
            .reference(\.parentID, "parentID", to: TaskItem.self, onDelete: .cascade),
        ],
        indexes: [
            // Numbers count per account: each account's first task is #1.
            Index("tasks_by_account_number", on: ["accountID", "number"], unique: true),
            // Serves the default view: incomplete first, then priority (critical first), then creation.
            Index("tasks_by_state", on: ["accountID", "isCompleted", .descending("priority"), "created"]),
            Index("tasks_by_due", on: ["accountID", "due"]),
            // Serves a list's manual order, and the last position in it when adding a task (without
            // it SQLite walked every task of the account: 0.1 s per `slate add` at 100,000 tasks).
            // Ending with the manual order's last keys (`created`, `_pk`), `id` and `_rev`, it also
            // covers a CalDAV collection's listing (ids and revisions in that order: a PROPFIND of
            // ETags, a sync from scratch) with no look at each task's row and nothing to sort:
            // 6.2 -> 1.8 ms in sqlite3 for a list of 10,000 tasks.
            Index("tasks_by_list_order", on: ["accountID", "listID", "order", "created", "_pk", "id", "_rev"]),
            // Serves a task's subtasks and the subtask counts of a page. With the account first:
            // on parentID alone SQLite preferred an account index for `accountID = ? AND
            // parentID IN (…)` and looked up every task of the account (3.7 ms per GET at 10,000).
            Index("tasks_by_account_parent", on: ["accountID", "parentID"]),
            // Serves a list's page in the default order: without it SQLite walked the account's
            // tasks in that order and looked up every row to keep one list's (≈12 rows per task
            // shown with 12 lists).
            Index("tasks_by_list_state", on: ["accountID", "listID", "isCompleted", .descending("priority"), "created"]),
        ],
        searchable: ["title", "notes"],
        // The totals of the default view and of a list's (or the Inbox's) page, active or
        // completed: `slate list` shows two of them, and counting 100,000 index entries for
        // them was half of its time.
        counts: [
            CountIndex("by_state", on: ["accountID", "isCompleted"]),
            CountIndex("by_list_state", on: ["accountID", "listID", "isCompleted"]),
        ],
        partition: "accountID",
        // A task leaving its list is recorded, so that a CalDAV sync of that list reports it gone.
        group: "listID"
    )
}

extension TaskItem {
    /// The title folded for A–Z sorting: no case, no diacritics ("Élan" sorts with "elan").
    /// Stored beside the title so that the sort runs in SQL.
    var titleSortKey: String {
        // ASCII folds to its lower case and nothing else (no diacritics, no widths): done
        // here, because Foundation's `folding` bridges through NSString (6.5k instructions
        // per imported task).
        let utf8 = title.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}

/// The schema version of Slate's task database, and its migration plan.
public enum SlateSchema {
    public static let version = 3
    public static let models: [any PersistentModel.Type] = [Account.self, TaskList.self, TaskItem.self, Credential.self,
                                                         CalendarResource.self, CalendarResourceBody.self, CalendarCollection.self,
                                                         CalendarSyncMark.self, CalendarOccurrence.self]
        + alertModels
    public static let migrations: [MigrationStage] = [reminderOffsetsBecomeAlerts, allDayDatesKeepTheirDay]
    /// What `models` at `version` give a SQLite file (`ModelContainer.schemaFingerprint`):
    /// declared, so that a command opening a current file builds only the tables it uses.
    /// SchemaFingerprintTests fail, naming the new value, when a change to the models
    /// changes it; so does every store a migration creates.
    public static let fingerprint: Int64 = -5_108_696_981_536_803_587
    /// What several nodes on one PostgreSQL database share that a single server on a file
    /// keeps in memory: the sign-in limiter's counts (`SignInLedger`).
    static let serverModels: [any PersistentModel.Type] = [SignInCounter.self]
}

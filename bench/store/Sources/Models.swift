import Foundation
import SlateStore

/// A parent row: a list that groups tasks, as in the Slate data model.
struct TaskList: PersistentModel, Equatable {
    var id: UUID
    var name: String
    var colour: String
    var icon: String
    var sortOrder: Int
    var created: Date

    static let schema = ModelSchema<TaskList>(
        table: "lists",
        columns: [
            .column(\.name, "name"), .column(\.colour, "colour"), .column(\.icon, "icon"),
            .column(\.sortOrder, "sortOrder"), .column(\.created, "created"),
        ],
        indexes: [Index("lists_by_name", on: [.caseInsensitive("name")], unique: true)]
    )
}

/// A task-like row with the property types a task manager stores: text, optional text,
/// flags, dates (optional and not), an Int-backed enum, a manual order and a reference.
struct TaskItem: PersistentModel, Equatable {
    /// Stored as its raw value; sorts none < low < medium < high < critical.
    enum Priority: Int, Codable, DatabaseValueConvertible, CaseIterable {
        case none = 0, low, medium, high, critical
    }

    var id: UUID
    var number: Int
    var title: String
    var notes: String?
    var isCompleted: Bool
    var completedAt: Date?
    var created: Date
    var modified: Date
    var due: Date?
    var priority: Priority
    var isFlagged: Bool
    var sortOrder: Int
    var listID: UUID?

    static let schema = ModelSchema<TaskItem>(
        table: "tasks",
        columns: [
            .column(\.number, "number"), .column(\.title, "title"), .column(\.notes, "notes"),
            .column(\.isCompleted, "isCompleted"), .column(\.completedAt, "completedAt"),
            .column(\.created, "created"), .column(\.modified, "modified"), .column(\.due, "due"),
            .column(\.priority, "priority"), .column(\.isFlagged, "isFlagged"), .column(\.sortOrder, "sortOrder"),
        ],
        references: [.reference(\.listID, "listID", to: TaskList.self, onDelete: .cascade)],
        // The index the fetch line uses: a list's open tasks, by priority then manual order.
        indexes: [Index("tasks_by_list_open", on: ["listID", "isCompleted", "priority", "sortOrder"])],
        searchable: ["title", "notes"]
    )
}

/// The models of the benchmark store, parents first.
let benchmarkModels: [any PersistentModel.Type] = [TaskList.self, TaskItem.self]

// Both models read themselves from a fetched row (`RowReadable`), as Slate's own models do:
// the public way SlateStore offers to read rows without `Decodable`'s keyed containers, and
// what the raw loop does (columns by position into the struct). Runner checks both sides
// return equal values.

extension TaskList: RowReadable {
    init(row: StoredRow) throws {
        self.init(id: try row.uuid(0), name: try row.string(1), colour: try row.string(2), icon: try row.string(3),
                  sortOrder: try row.int(4), created: try row.date(5))
    }
}

extension TaskItem: RowReadable {
    init(row: StoredRow) throws {
        self.init(
            id: try row.uuid(0), number: try row.int(1), title: try row.string(2),
            notes: row.isNull(3) ? nil : try row.string(3), isCompleted: try row.bool(4), completedAt: row.optionalDate(5),
            created: try row.date(6), modified: try row.date(7), due: row.optionalDate(8), priority: try row.value(9),
            isFlagged: try row.bool(10), sortOrder: try row.int(11), listID: try row.optionalUUID(12))
    }
}

// Both models also write their own column values (`RowWritable`), as Slate's task model
// does: the public way SlateStore offers to save rows without a key path per column, and
// what the raw loop does (each field bound by position). Runner checks the values equal
// what the schema's key paths give, and that both sides read back the generated rows.

extension TaskList: RowWritable {
    var rowValues: [DatabaseValue] {
        [id.databaseValue, name.databaseValue, colour.databaseValue, icon.databaseValue, sortOrder.databaseValue,
         created.databaseValue]
    }
}

extension TaskItem: RowWritable {
    var rowValues: [DatabaseValue] {
        [id.databaseValue, number.databaseValue, title.databaseValue, notes.databaseValue, isCompleted.databaseValue,
         completedAt.databaseValue, created.databaseValue, modified.databaseValue, due.databaseValue,
         priority.databaseValue, isFlagged.databaseValue, sortOrder.databaseValue, listID.databaseValue]
    }
}

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

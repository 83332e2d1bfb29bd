import Foundation

// What a parser makes of a file, before it is matched against the database. Parsers check
// each value where they read it (so the error names its line and field); the import then
// resolves references between records and against the database (Slate+Import.swift).

/// Everything one file holds.
struct ImportBatch {
    var lists: [IncomingList] = []
    var tasks: [IncomingTask] = []
}

/// A list a file declares. Nil fields take the defaults of a new list.
struct IncomingList {
    var location: ImportError.Location
    var id: UUID?
    /// Already valid (`TaskRules.validListName`).
    var name: String
    var color: String?
    var icon: String?
    var order: Double?
    var created: Date?
}

/// How a task names its list.
enum ListReference: Hashable {
    /// A list id, of a list in the file or in the database (Slate's JSON).
    case id(UUID)
    /// A list name, matched without case; a list that does not exist is created.
    case name(String)
    /// A todo.txt project: the list with that name, else with its `_` read as spaces
    /// (created under that name if there is none).
    case project(String)
}

/// A task as a file describes it. Nil `id`: a new task; nil `number`, `created`,
/// `modified` or `order`: the store's or the import's default.
struct IncomingTask {
    var location: ImportError.Location
    var id: UUID?
    var number: Int?
    var title: String
    var notes = ""
    var isCompleted = false
    var completedAt: Date?
    var created: Date?
    var modified: Date?
    var due: Date?
    var isAllDay = false
    var priority: Priority = .none
    var isFlagged = false
    var list: ListReference?
    var parentID: UUID?
    var order: Double?
    var tags: [String] = []
    var recurrence: Recurrence?
    var alerts: [TaskAlert] = []

    /// The names of the fields that refer to other records, as the format spells them,
    /// and where they are when that is more precise than `location`.
    var idField = "id"
    var listField = "listID"
    var listLocation: ImportError.Location?
    var parentField = "parentID"
    var parentLocation: ImportError.Location?

    init(location: ImportError.Location, title: String) {
        self.location = location
        self.title = title
    }
}

/// The task rules (TaskRules), raising `ImportError`s that say where the value is.
enum ImportRules {
    /// Runs a TaskRules check, turning its refusal into an error at `location`.
    static func check<T>(_ location: ImportError.Location, field: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SlateError {
            throw ImportError(location, field: field, error.description)
        }
    }

    static func title(_ text: String, at location: ImportError.Location, field: String) throws -> String {
        try check(location, field: field) { try TaskRules.validTitle(text, field: field) }
    }

    static func notes(_ text: String, at location: ImportError.Location, field: String) throws -> String {
        try check(location, field: field) { try TaskRules.validNotes(text) }
    }

    static func tags(_ tags: [String], at location: ImportError.Location, field: String) throws -> [String] {
        try check(location, field: field) { try TaskRules.validTags(tags) }
    }

    static func recurrence(_ recurrence: Recurrence?, at location: ImportError.Location, field: String) throws -> Recurrence? {
        try check(location, field: field) { try TaskRules.validRecurrence(recurrence) }
    }

    /// A list's name; with `declared`, a list the file declares may be the Inbox (another
    /// app's, or an export's from before no list could take the name), which the import
    /// reads as Slate's (`ImportPlan.add(_:)`).
    static func listName(_ name: String, at location: ImportError.Location, field: String, declared: Bool = false) throws -> String {
        if declared, TaskRules.isInboxName(name) { return name.trimmingCharacters(in: .whitespaces) }
        return try check(location, field: field) { try TaskRules.validListName(name) }
    }

    static func color(_ color: String, at location: ImportError.Location, field: String) throws -> String {
        try check(location, field: field) { try TaskRules.validColor(color) }
    }

    static func icon(_ icon: String, at location: ImportError.Location, field: String) throws -> String {
        try check(location, field: field) { try TaskRules.validIcon(icon) }
    }

    /// A manual-order position: a finite number.
    static func order(_ value: Double, at location: ImportError.Location, field: String) throws -> Double {
        guard value.isFinite else { throw ImportError(location, field: field, "\(field) must be a finite number") }
        return value
    }
}

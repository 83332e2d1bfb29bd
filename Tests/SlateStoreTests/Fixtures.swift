import Foundation
import SlateStore
import TestDatabases

/// A task-like model with every supported property type, used across the tests.
struct Item: PersistentModel, Equatable {
    enum Level: Int, Codable, DatabaseValueConvertible, CaseIterable { case none = 0, low, medium, high, critical }
    enum Kind: String, Codable, CaseIterable { case chore, errand, idea }

    var id = UUID()
    var title: String
    var notes: String? = nil
    var rank: Int = 0
    var score: Double = 0
    var isDone: Bool = false
    var due: Date? = nil
    var created: Date = Date(timeIntervalSinceReferenceDate: 0)
    var level: Level = .none
    var kind: Kind? = nil
    var attachment: Data? = nil
    var count: Int? = nil
    var projectID: UUID? = nil
    var parentID: UUID? = nil
    var labels: [String] = []

    static let schema = ModelSchema<Item>(
        table: "items",
        columns: [
            .column(\.title, "title"), .column(\.notes, "notes"), .column(\.rank, "rank"),
            .column(\.score, "score"), .column(\.isDone, "isDone"), .column(\.due, "due"),
            .column(\.created, "created"), .column(\.level, "level"), .column(\.kind, "kind"),
            .column(\.attachment, "attachment"), .column(\.count, "count"), .json(\.labels, "labels"),
        ],
        references: [
            .reference(\.projectID, "projectID", to: Project.self, onDelete: .nullify),
            .reference(\.parentID, "parentID", to: Item.self, onDelete: .cascade),
        ],
        indexes: [Index("items_by_rank", on: ["projectID", "rank"])],
        searchable: ["title", "notes"],
        counts: [CountIndex("by_project_done", on: ["projectID", "isDone"]), CountIndex("by_level", on: ["level"])]
    )
}

extension Item.Kind: DatabaseValueConvertible {}

/// A parent row: deleting one nullifies its items.
struct Project: PersistentModel, Equatable {
    var id = UUID()
    var name: String
    var ownerID: UUID? = nil

    static let schema = ModelSchema<Project>(
        table: "projects",
        columns: [.column(\.name, "name")],
        references: [.reference(\.ownerID, "ownerID", to: Owner.self, onDelete: .cascade)],
        indexes: [Index("projects_by_name", on: [.caseInsensitive("name")], unique: true)]
    )
}

/// A grandparent row: deleting one cascades to its projects.
struct Owner: PersistentModel, Equatable {
    var id = UUID()
    var name: String

    static let schema = ModelSchema<Owner>(table: "owners", columns: [.column(\.name, "name")])
}

/// A row that refuses deletion of the owner it points to.
struct Badge: PersistentModel, Equatable {
    var id = UUID()
    var label: String
    var ownerID: UUID

    static let schema = ModelSchema<Badge>(
        table: "badges",
        columns: [.column(\.label, "label")],
        references: [.reference(\.ownerID, "ownerID", to: Owner.self, onDelete: .deny)]
    )
}

let allModels: [any PersistentModel.Type] = [Owner.self, Project.self, Item.self, Badge.self]

/// A fresh store with every test model: in memory, or a new schema on PostgreSQL when the
/// suites run there (`TestDatabase`).
func makeContainer() throws -> ModelContainer {
    try ModelContainer(for: allModels, configuration: TestDatabase.configuration())
}

/// A fresh store (`makeContainer`) with `projects` projects and 30 items: item `i` has rank
/// `i % 4`, is done when `i % 3 == 0`, has level `i % 5`, and belongs to no project when
/// `unassigned(i)`, otherwise to project `i % projects`. The filter suites compare their
/// descriptors with predicates on it.
func filledItems(projects count: Int, unassigned: (Int) -> Bool) throws -> (ModelContext, [UUID]) {
    let context = ModelContext(try makeContainer())
    let projects = (0..<count).map { Project(name: String(UnicodeScalar(UInt8(65 + $0)))) }
    projects.forEach(context.insert)
    for index in 0..<30 {
        context.insert(Item(title: "Item \(index)", rank: index % 4, isDone: index % 3 == 0, level: Item.Level(rawValue: index % 5)!,
                            projectID: unassigned(index) ? nil : projects[index % count].id))
    }
    try context.save()
    return (context, projects.map(\.id))
}

/// A fresh file in a new temporary folder; the folder is removed by `cleanup`.
struct TemporaryDirectory: ~Copyable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("slate-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

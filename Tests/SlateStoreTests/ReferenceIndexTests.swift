import Foundation
@testable import SlateStore
import Testing

/// A reference column's own index: none when a declared index starts with the column (it
/// serves the same lookups), and only the rows that refer to something when the reference
/// is optional. Each index less is one entry less for every row written (an import).
@Suite struct ReferenceIndexTests {
    struct Owner: PersistentModel {
        var id = UUID()
        var name: String
        static let schema = ModelSchema<Owner>(table: "ri_owners", columns: [.column(\.name, "name")])
    }

    struct Folder: PersistentModel {
        var id = UUID()
        var name: String
        static let schema = ModelSchema<Folder>(table: "ri_folders", columns: [.column(\.name, "name")])
    }

    struct Note: PersistentModel {
        var id = UUID()
        var title: String
        var ownerID: UUID
        var folderID: UUID?
        static let schema = ModelSchema<Note>(
            table: "ri_notes", columns: [.column(\.title, "title")],
            references: [
                .reference(\.ownerID, "ownerID", to: Owner.self, onDelete: .cascade),
                .reference(\.folderID, "folderID", to: Folder.self, onDelete: .nullify),
            ],
            indexes: [Index("ri_notes_by_owner", on: ["ownerID", "title"])])
    }

    /// Partitioned by its owner, with no declared index: the revision index (ownerID, _rev)
    /// serves the reference.
    struct Sticker: PersistentModel {
        var id = UUID()
        var label: String
        var ownerID: UUID
        static let schema = ModelSchema<Sticker>(
            table: "ri_stickers", columns: [.column(\.label, "label")],
            references: [.reference(\.ownerID, "ownerID", to: Owner.self, onDelete: .cascade)],
            partition: "ownerID")
    }

    static let models: [any PersistentModel.Type] = [Owner.self, Folder.self, Note.self, Sticker.self]

    private func indexes(_ path: String) throws -> [String: String] {
        let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
        var found: [String: String] = [:]
        for row in try database.rows("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ri_notes' AND sql IS NOT NULL") {
            found[String.fromDatabaseValue(row["name"]) ?? ""] = String.fromDatabaseValue(row["sql"]) ?? ""
        }
        return found
    }

    private func plan(_ sql: String, _ path: String) throws -> String {
        let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
        return try database.rows("EXPLAIN QUERY PLAN " + sql, [.text("x")]).compactMap { String.fromDatabaseValue($0["detail"]) }
            .joined(separator: "; ")
    }

    @Test func referencesAreLookedUpThroughTheFewestIndexes() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        _ = try ModelContainer(for: Self.models, configuration: ModelConfiguration(path: path))
        let found = try indexes(path)
        #expect(found["ri_notes__ownerID"] == nil)
        #expect(found["ri_notes__folderID"] == nil)
        #expect(found["ri_notes__folderID__set"]?.contains("WHERE \"folderID\" IS NOT NULL") == true)
        #expect(found["ri_notes_by_owner"] != nil)
        // What a delete rule and a foreign key check ask: both by an id, through an index.
        #expect(try plan("SELECT \"id\" FROM \"ri_notes\" WHERE \"folderID\" = ?", path).contains("ri_notes__folderID__set"))
        #expect(try plan("SELECT \"id\" FROM \"ri_notes\" WHERE \"ownerID\" = ?", path).contains("ri_notes_by_owner"))
    }

    @Test func aPartitionColumnIsLookedUpThroughTheRevisionIndex() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        let container = try ModelContainer(for: Self.models, configuration: ModelConfiguration(path: path))
        let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
        let names = try database.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ri_stickers' AND sql IS NOT NULL")
            .compactMap { String.fromDatabaseValue($0["name"]) }
        #expect(names == ["ri_stickers__partition_rev"])
        #expect(try plan("SELECT \"id\" FROM \"ri_stickers\" WHERE \"ownerID\" = ?", path).contains("ri_stickers__partition_rev"))
        // The delete rule still reaches the owner's stickers.
        let context = ModelContext(container)
        let owner = Owner(name: "ana"), other = Owner(name: "ben")
        [owner, other].forEach(context.insert)
        context.insert(Sticker(label: "gold", ownerID: owner.id))
        context.insert(Sticker(label: "silver", ownerID: other.id))
        try context.save()
        context.delete(owner)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Sticker>()).map(\.label) == ["silver"])
    }

    @Test func deleteRulesStillReachEveryReferringRow() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(for: Self.models, configuration: ModelConfiguration(path: folder.path("notes.sqlite")))
        let context = ModelContext(container)
        let owner = Owner(name: "ana"), box = Folder(name: "box")
        context.insert(owner)
        context.insert(box)
        let filed = Note(title: "filed", ownerID: owner.id, folderID: box.id)
        context.insert(filed)
        context.insert(Note(title: "loose", ownerID: owner.id))
        try context.save()
        context.delete(box)
        try context.save()
        #expect(try context.model(Note.self, id: filed.id)?.folderID == nil)
        context.delete(owner)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Note>()) == 0)
    }

    @Test func anOlderFileLosesTheIndexesNoLongerDeclared() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        _ = try ModelContainer(for: Self.models, configuration: ModelConfiguration(path: path))
        // As a file from before: an index on each reference column, whole.
        let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
        try database.execute("DROP INDEX \"ri_notes__folderID__set\"")
        try database.execute("CREATE INDEX \"ri_notes__folderID\" ON \"ri_notes\"(\"folderID\")")
        try database.execute("CREATE INDEX \"ri_notes__ownerID\" ON \"ri_notes\"(\"ownerID\")")
        try database.execute("UPDATE _slate_meta SET value = 0 WHERE key = 'schema_fingerprint'")
        _ = try ModelContainer(for: Self.models, configuration: ModelConfiguration(path: path))
        #expect(Set(try indexes(path).keys) == ["ri_notes__rev", "ri_notes__folderID__set", "ri_notes_by_owner"])
    }
}

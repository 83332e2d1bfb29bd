import Foundation
import TestDatabases
import Testing

@testable import SlateStore

/// A database made before the reference indexes changed (an index on every reference
/// column, whole) is brought to the declared ones when it is opened, as a SQLite file is
/// (`ReferenceIndexTests`): a deployment upgraded in place drops what no longer serves.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct PostgreSQLIndexUpgradeTests {
    typealias Note = ReferenceIndexTests.Note

    func indexes(_ database: PostgreSQLDatabase) throws -> [String: String] {
        var found: [String: String] = [:]
        for row in try database.rows(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'ri_notes'", [])
        {
            found[String.fromDatabaseValue(row["indexname"]) ?? ""] = String.fromDatabaseValue(row["indexdef"]) ?? ""
        }
        return found
    }

    @Test func anOlderDatabaseLosesTheIndexesNoLongerDeclaredAndKeepsItsRows() throws {
        let url = try #require(TestDatabase.freshStore())
        let configuration = ModelConfiguration(postgreSQL: try PostgreSQLLocation(url: url))
        let container = try ModelContainer(for: ReferenceIndexTests.models, configuration: configuration)
        let context = ModelContext(container)
        let owner = ReferenceIndexTests.Owner(name: "ana")
        context.insert(owner)
        context.insert(Note(title: "loose", ownerID: owner.id))
        try context.save()

        // As a database from before: an index on each reference column, whole.
        let database = try PostgreSQLDatabase(location: PostgreSQLLocation(url: url), lockTimeout: 5)
        try database.execute("DROP INDEX \"ri_notes__folderID__set\"")
        try database.execute("CREATE INDEX \"ri_notes__folderID\" ON \"ri_notes\"(\"folderID\")")
        try database.execute("CREATE INDEX \"ri_notes__ownerID\" ON \"ri_notes\"(\"ownerID\")")
        try database.execute("UPDATE _slate_meta SET value = 0 WHERE key = 'schema_fingerprint'")

        let reopened = try ModelContainer(for: ReferenceIndexTests.models, configuration: configuration)
        let found = try indexes(database)
        #expect(found["ri_notes__ownerID"] == nil)
        #expect(found["ri_notes__folderID"] == nil)
        #expect(found["ri_notes__folderID__set"]?.contains("WHERE (\"folderID\" IS NOT NULL)") == true)
        #expect(found["ri_notes_by_owner"] != nil)
        #expect(try ModelContext(reopened).fetchCount(FetchDescriptor<Note>()) == 1)
    }
}

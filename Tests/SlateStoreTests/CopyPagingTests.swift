import Foundation
@testable import SlateStore
import TestDatabases
import Testing

// `slate migrate`'s copy reads and checks every table a page at a time, each page found by
// its key (after the last key of the page before). With pages smaller than the tables, a
// copy must still carry every row, and the check must still see a difference on any page.

@Suite struct CopyPagingTests {
    /// A store with more rows than a page in the model's table and in each of the store's
    /// own tables that a write fills: commits, tombstones, undo history, revisions.
    func filledStore() throws -> ModelContainer {
        let container = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let owners = [UUID(), UUID(), UUID()]
        var memos: [Memo] = []
        for number in 0..<12 {
            let memo = Memo(ownerID: owners[number % owners.count], text: "Memo \(number)")
            context.insert(memo)
            try context.save(undoLabel: "Add \(number)")
            memos.append(memo)
        }
        for memo in memos.prefix(4) {
            context.delete(memo)
            try context.save(undoLabel: "Delete \(memo.text)")
        }
        return container
    }

    func rowCount(_ table: String, in container: ModelContainer) throws -> Int {
        try container.pool.read { Int.fromDatabaseValue(try $0.scalar("SELECT count(*) FROM \(table)") ?? .null) ?? -1 }
    }

    @Test(arguments: [1, 3, 8])
    func aCopyInPagesSmallerThanItsTablesCarriesEveryRow(pageSize: Int) throws {
        let source = try filledStore()
        let tables = ["memos", "_slate_commits", "_slate_tombstones", "_slate_undo", "_slate_revisions"]
        let expected = try tables.map { try rowCount($0, in: source) }
        #expect(expected == [8, 16, 4, 16, 3], "the fixture fills more than a page of each table")

        let destination = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let counts = try source.copy(into: destination, leaving: [], pageSize: pageSize)
        #expect(tables.map { counts[$0] } == expected)
        #expect(try tables.map { try rowCount($0, in: destination) } == expected)
        try source.verifyCopy(in: destination, leaving: [], pageSize: pageSize)

        let memos = try ModelContext(destination).fetch(FetchDescriptor<Memo>()).map(\.text).sorted()
        #expect(memos == (4..<12).map { "Memo \($0)" }.sorted())
    }

    @Test func theCheckFindsADifferenceOnALaterPage() throws {
        let source = try filledStore()
        let destination = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        _ = try source.copy(into: destination, leaving: [], pageSize: 3)

        // The model's last row (the 8th, on the third page of 3) edited in the copy.
        try destination.pool.write { database in
            try database.execute("UPDATE memos SET text = 'changed' WHERE \"_pk\" = (SELECT max(\"_pk\") FROM memos)")
        }
        #expect(throws: StoreError.invalidSchema("the copy differs from the original in memos, at row 8")) {
            try source.verifyCopy(in: destination, leaving: [], pageSize: 3)
        }
    }

    @Test func theCheckFindsAMissingRowOfTheStoresOwnTablesOnALaterPage() throws {
        let source = try filledStore()
        let destination = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        _ = try source.copy(into: destination, leaving: [], pageSize: 3)

        // The commit log's last row (the 16th, on the sixth page of 3) missing from the copy.
        try destination.pool.write { database in
            try database.execute("DELETE FROM _slate_commits WHERE seq = (SELECT max(seq) FROM _slate_commits)")
        }
        #expect(throws: StoreError.invalidSchema("the copy differs from the original in _slate_commits, at row 16")) {
            try source.verifyCopy(in: destination, leaving: [], pageSize: 3)
        }
    }
}

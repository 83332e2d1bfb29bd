import Foundation
@testable import SlateStore
import Testing

/// An index may name the store's hidden `_pk` and `_rev` after the declared columns: then a
/// listing of ids and revisions in the index's order (`fetchRevisions`, what a CalDAV PROPFIND
/// of ETags reads) comes from the index alone, unsorted, and stays right as rows change.
@Suite struct RevisionIndexTests {
    struct Shelf: PersistentModel {
        var id = UUID()
        var name: String
        static let schema = ModelSchema<Shelf>(table: "rv_shelves", columns: [.column(\.name, "name")])
    }

    struct Book: PersistentModel {
        var id = UUID()
        var title: String
        var shelfID: UUID
        var position: Int
        static let schema = ModelSchema<Book>(
            table: "rv_books", columns: [.column(\.title, "title"), .column(\.position, "position")],
            references: [.reference(\.shelfID, "shelfID", to: Shelf.self, onDelete: .cascade)],
            indexes: [Index("rv_books_by_shelf", on: ["shelfID", "position", "_pk", "id", "_rev"])])
    }

    struct Misnamed: PersistentModel {
        var id = UUID()
        var title: String
        static let schema = ModelSchema<Misnamed>(
            table: "rv_misnamed", columns: [.column(\.title, "title")], indexes: [Index("rv_misnamed_by_search", on: ["title", "_search"])])
    }

    private func listing(_ shelf: UUID) -> FetchDescriptor<Book> {
        FetchDescriptor<Book>(sortKeys: [.ascending(\.position)]).matching(\.shelfID, is: shelf)
    }

    @Test func aListingOfRevisionsIsReadFromTheIndexAndFollowsWrites() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("books.sqlite")
        let container = try ModelContainer(for: [Shelf.self, Book.self], configuration: ModelConfiguration(path: path))
        let context = ModelContext(container)
        let shelf = Shelf(name: "Scripts")
        context.insert(shelf)
        var books = (0..<5).map { Book(title: "Draft \($0)", shelfID: shelf.id, position: 5 - $0) }
        books.forEach { context.insert($0) }
        try context.save()

        let query = try SelectQuery(listing(shelf.id), dialect: .sqlite).identitySQL(limit: nil, offset: nil)
        let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
        let plan = try database.rows("EXPLAIN QUERY PLAN " + query.0, query.1).compactMap { String.fromDatabaseValue($0["detail"]) }
        #expect(plan == ["SEARCH t USING COVERING INDEX rv_books_by_shelf (shelfID=?)"])

        func expectListingMatchesRows() throws {
            let rows = try context.fetch(listing(shelf.id)).map(\.id)
            let revisions = try context.fetchRevisions(listing(shelf.id))
            #expect(revisions.map(\.id) == rows)
            for entry in revisions {
                #expect(try context.revisioned(Book.self, id: entry.id)?.revision == entry.revision)
            }
        }
        try expectListingMatchesRows()
        let before = try context.fetchRevisions(listing(shelf.id))
        // A change of a row's other columns moves its revision in the index too.
        books[2].title = "Final draft"
        context.update(books[2])
        try context.save()
        try expectListingMatchesRows()
        let after = try context.fetchRevisions(listing(shelf.id))
        let changed = zip(before, after).filter { $0.0.revision != $0.1.revision }.map(\.1.id)
        #expect(changed == [books[2].id])
    }

    @Test func anIndexMayNameNoColumnTheStoreDoesNotKeep() throws {
        let folder = try TemporaryDirectory()
        #expect {
            try ModelContainer(for: [Misnamed.self], configuration: ModelConfiguration(path: folder.path("m.sqlite")))
        } throws: { error in
            "\(error)".contains("index rv_misnamed_by_search names unknown column '_search'")
        }
    }
}

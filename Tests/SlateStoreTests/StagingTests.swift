import Foundation
@testable import SlateStore
import TestDatabases
import Testing

// What a context stages and what a save binds: the once-per-type consistency check carried
// by one row of many, models encoded only when saved, and a statement bound over without
// clearing (cleared when given fewer values than it has parameters).

/// A model whose column name is not its property's coding key: the store writes `wording`
/// through the key path, and reading the row back through `Decodable` finds no `text`.
private struct Misnamed: PersistentModel {
    var id = UUID()
    var text: String = ""

    static let schema = ModelSchema<Misnamed>(table: "misnamed", columns: [.column(\.text, "wording")])
}

/// A model kept as a class, so that what it holds at the save is visible.
private final class Jotting: PersistentModel, @unchecked Sendable {
    var id = UUID()
    var text: String

    init(text: String) { self.text = text }

    static let schema = ModelSchema<Jotting>(table: "jottings", columns: [.column(\.text, "text")])
}

@Suite struct StagingTests {
    @Test func aMisnamedColumnIsRefusedWhenItsRowIsOneOfManyInOneSave() throws {
        let container = try ModelContainer(for: [Misnamed.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container, undo: false)
        for index in 0..<50 { context.insert(Misnamed(text: "row \(index)")) }
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try context.fetchCount(FetchDescriptor<Misnamed>()) == 0, "nothing of the refused save is written")
        // Staged again after a rollback: the check goes with the new rows too.
        context.rollback()
        context.insert(Misnamed(text: "alone"))
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try context.fetchCount(FetchDescriptor<Misnamed>()) == 0)
    }

    @Test func aRefusedSaveKeepsItsCheckForTheNextTry() throws {
        let container = try ModelContainer(for: [Misnamed.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        for index in 0..<3 { context.insert(Misnamed(text: "row \(index)")) }
        #expect(throws: StoreError.self) { try context.save() }
        #expect(context.hasChanges)
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try context.fetchCount(FetchDescriptor<Misnamed>()) == 0)
    }

    @Test func manyRowsOfAWellDeclaredModelAreSavedWhole() throws {
        let context = ModelContext(try makeContainer(), undo: false)
        let items = (0..<500).map { Item(title: "Item \($0)", rank: $0 % 7) }
        items.forEach(context.insert)
        try context.save()
        let read = try context.fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)]))
        #expect(Set(read.map(\.id)) == Set(items.map(\.id)))
        #expect(read.first { $0.id == items[123].id } == items[123])
    }

    @Test func anInsertedModelIsSavedAsItIsWhenSaved() throws {
        let context = ModelContext(try ModelContainer(for: [Jotting.self], configuration: TestDatabase.configuration()))
        let jotting = Jotting(text: "first draft")
        context.insert(jotting)
        jotting.text = "final wording"
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Jotting>()).map(\.text) == ["final wording"])
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "SQLite's prepared statements"))
    func aStatementGivenFewerValuesThanItsParametersBindsTheRestAsNull() throws {
        let container = try makeContainer()
        let sql = "SELECT ?1 AS a, ?2 AS b"
        let read = try container.pool.write { database in
            try [[.integer(1), .integer(2)], [.integer(3)], [.integer(4), .integer(5)]].map { (arguments: [DatabaseValue]) in
                try database.rows(sql, arguments).map { [$0["a"], $0["b"]] }
            }
        }
        #expect(read == [[[.integer(1), .integer(2)]], [[.integer(3), .null]], [[.integer(4), .integer(5)]]])
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "SQLite's prepared statements"))
    func alternatingStatementsEachRunTheirOwnText() throws {
        let container = try makeContainer()
        // Equal text in a string of its own is the same statement.
        let again = String("SELECT ? + 1".reversed().reversed())
        let read = try container.pool.write { database in
            try (0..<3).flatMap { (round: Int64) in
                [try database.scalar("SELECT ? + 1", [.integer(round)]), try database.scalar("SELECT ? * 10", [.integer(round)]),
                 try database.scalar(again, [.integer(round + 7)])]
            }
        }
        #expect(read == [1, 0, 8, 2, 10, 9, 3, 20, 10].map { DatabaseValue.integer($0) })
    }
}

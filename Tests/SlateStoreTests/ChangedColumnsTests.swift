import Foundation
@testable import SlateStore
import TestDatabases
import Testing

// An update assigns only the columns whose value changes (SQLite rewrites the entry of
// every index on an assigned column, changed or not). A trigger `AFTER UPDATE OF title`,
// which fires exactly when `title` is assigned, tells which columns an update touched.

// SQLite only: PostgreSQL writes a whole new row version on any UPDATE, so there it assigns
// every column, as before.
@Suite(.enabled(if: !TestDatabase.isPostgreSQL, "SQLite's fast path"))
struct ChangedColumnsTests {
    func container() throws -> ModelContainer {
        let container = try makeContainer()
        try container.pool.write { database in
            try database.execute("""
                CREATE TABLE title_log (id TEXT);
                CREATE TRIGGER log_title AFTER UPDATE OF "title" ON items BEGIN INSERT INTO title_log VALUES (new.id); END;
                """)
        }
        return container
    }

    func assignedTitles(_ container: ModelContainer) throws -> Int {
        try container.pool.write { Int.fromDatabaseValue(try $0.scalar("SELECT count(*) FROM title_log") ?? .null) ?? -1 }
    }

    @Test func anUpdateAssignsOnlyWhatChangedAndKeepsTheRest() throws {
        let container = try container()
        let context = ModelContext(container)
        var item = Item(title: "Water the fig", notes: "twice", rank: 3)
        context.insert(item)
        try context.save()
        let first = try #require(try context.revisioned(Item.self, id: item.id))

        item.isDone = true
        context.update(item)
        try context.save()
        #expect(try assignedTitles(container) == 0, "the title did not change, so it was not assigned")
        let done = try #require(try context.revisioned(Item.self, id: item.id))
        #expect(done.model == item)
        #expect(done.revision > first.revision)

        item.title = "Water the fig tree"
        context.update(item)
        try context.save()
        #expect(try assignedTitles(container) == 1)
        #expect(try context.model(Item.self, id: item.id) == item)

        // Nothing changed at all: still a write, with a new revision.
        context.update(item)
        try context.save()
        #expect(try assignedTitles(container) == 1)
        #expect(try #require(try context.revisioned(Item.self, id: item.id)).revision > done.revision)
    }

    @Test func undoOfAnUpdateRestoresEveryColumn() throws {
        let container = try container()
        let context = ModelContext(container)
        let original = Item(title: "Prune the hedge", notes: "in March", rank: 1, labels: ["garden"])
        context.insert(original)
        try context.save()
        var changed = original
        changed.rank = 5
        changed.labels = ["garden", "weekend"]
        context.update(changed)
        try context.save()
        #expect(try context.model(Item.self, id: original.id) == changed)
        #expect(try context.undo() != nil)
        #expect(try context.model(Item.self, id: original.id) == original)
    }
}

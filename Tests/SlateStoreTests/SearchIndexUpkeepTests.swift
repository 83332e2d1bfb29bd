import Foundation
@testable import SlateStore
import TestDatabases
import Testing

// Saves keep the full-text index themselves, at the end of each save (no triggers). After
// every kind of write, FTS5's own integrity check compares the index with the rows, and
// searches give what the rows, tokenised here, say they should (on PostgreSQL the searches
// alone: its rows carry their search document, written with them).

@Suite struct SearchIndexUpkeepTests {
    /// Fails when the index differs from the text of the rows it indexes.
    func checkIndex(_ container: ModelContainer) throws {
        // PostgreSQL keeps no FTS5 table: each row carries its own search document.
        guard container.dialect == .sqlite else { return }
        try container.pool.write { try $0.execute("INSERT INTO items_fts(items_fts) VALUES ('integrity-check')") }
    }

    /// The titles `word` should find: a word of the title or notes starts with it.
    func expectedTitles(_ context: ModelContext, _ word: String) throws -> [String] {
        try context.fetch(FetchDescriptor<Item>()).filter { item in
            (item.title + " " + (item.notes ?? "")).lowercased()
                .split { !$0.isLetter && !$0.isNumber }.contains { $0.hasPrefix(word) }
        }.map(\.title).sorted()
    }

    func foundTitles(_ context: ModelContext, _ word: String) throws -> [String] {
        var descriptor = FetchDescriptor<Item>()
        descriptor.searchText = word
        return try context.fetch(descriptor).map(\.title).sorted()
    }

    /// The index is whole and every word of `words` finds what it should.
    func verify(_ context: ModelContext, _ words: [String], _ step: String) throws {
        try checkIndex(context.container)
        for word in words {
            #expect(try foundTitles(context, word) == (try expectedTitles(context, word)), "\(step): \(word)")
        }
    }

    let words = ["apple", "banana", "cherry", "damson", "elder", "fig", "grape"]

    @Test func everyKindOfWriteKeepsTheIndexWhole() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let project = Project(name: "Orchard")
        let parent = Item(title: "Pick apple", notes: "the banana crate", projectID: project.id)
        let child = Item(title: "Wash cherry", parentID: parent.id)
        var plain = Item(title: "Plant fig")
        context.insert(project)
        for item in [parent, child, plain] { context.insert(item) }
        try context.save()
        try verify(context, words, "insert")

        // In one save: a row inserted then changed, one inserted then deleted, a text change
        // and a change that leaves the text alone.
        var fresh = Item(title: "Buy damson")
        context.insert(fresh)
        fresh.title = "Buy elder"
        context.update(fresh)
        let gone = Item(title: "Sell grape")
        context.insert(gone)
        context.delete(gone)
        plain.notes = "near the grape vine"
        context.update(plain)
        var done = parent
        done.isDone = true
        context.update(done)
        try context.save()
        try verify(context, words, "mixed save")

        context.delete(project)  // nullifies the items' project
        try context.save()
        try verify(context, words, "nullify")
        context.delete(parent)  // cascades to its subtask
        try context.save()
        try verify(context, words, "cascade")

        for step in 1...4 {
            #expect(try context.undo() != nil)
            try verify(context, words, "undo \(step)")
        }
        for step in 1...4 {
            #expect(try context.redo() != nil)
            try verify(context, words, "redo \(step)")
        }
    }

    @Test func aRowidFreedAndTakenAgainInOneSave() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let first = Item(title: "Prune apple")
        context.insert(first)
        try context.save()
        // The deleted row had the largest rowid, so the new row is given the same one.
        context.delete(first)
        context.insert(Item(title: "Prune cherry"))
        try context.save()
        try verify(context, words, "rowid reused")
        #expect(try foundTitles(context, "apple").isEmpty)
        #expect(try foundTitles(context, "cherry") == ["Prune cherry"])
    }

    @Test func aBulkInsertIsIndexedAndItsUndoRemovesItAgain() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.insert(Item(title: "Keep fig"))
        try context.save()
        let bulk = ModelContext(container)
        bulk.recordsInsertsByID = true
        for index in 0..<500 {
            bulk.insert(Item(title: "\(words[index % words.count].capitalized) \(index)", notes: index % 2 == 0 ? "grape juice" : nil))
        }
        try bulk.save()
        try verify(bulk, words, "bulk insert")
        #expect(try foundTitles(bulk, "juice").count == 250)
        #expect(try bulk.undo() != nil)
        try verify(bulk, words, "bulk undo")
        #expect(try foundTitles(bulk, "fig") == ["Keep fig"])
    }

    /// Undoing a bulk insert takes its rows out of the index one by one ('delete', which
    /// tokenises each row's text again) while the table keeps more rows than go, and rebuilds
    /// the index from the table when it keeps fewer: either way the same searches answer the
    /// same, and the bulk save's change to a row that stays is reverted in the index too.
    @Test(arguments: [(kept: 40, imported: 600), (kept: 700, imported: 300), (kept: 0, imported: 1_200)])
    func undoingABulkInsertGivesTheSameSearchesWhetherTheIndexIsRebuiltOrNot(kept: Int, imported: Int) throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let keptItems = (0..<kept).map { Item(title: "Keep \(words[$0 % words.count]) \($0)", notes: $0 % 3 == 0 ? "old elder" : nil) }
        keptItems.forEach(context.insert)
        try context.save()
        let before = try words.map { try foundTitles(context, $0) }

        let bulk = ModelContext(container)
        bulk.recordsInsertsByID = true
        if var changed = keptItems.first {
            changed.title = "Renamed banana"
            changed.notes = "quince"
            bulk.update(changed)
        }
        for index in 0..<imported {
            bulk.insert(Item(title: "\(words[(index * 5) % words.count].capitalized) import \(index)", notes: index % 2 == 0 ? "quince jam" : nil))
        }
        try bulk.save()
        try verify(bulk, words + ["quince", "import"], "bulk insert")
        #expect(try foundTitles(bulk, "import").count == imported)

        #expect(try bulk.undo() != nil)
        try verify(bulk, words + ["quince", "import", "renamed", "keep"], "bulk undo")
        #expect(try words.map { try foundTitles(bulk, $0) } == before, "every search answers as before the bulk insert")
        #expect(try foundTitles(bulk, "quince").isEmpty && (try foundTitles(bulk, "import")).isEmpty)
        #expect(try foundTitles(bulk, "keep").count == kept)

        // The index takes ordinary writes after a rebuild as before.
        context.insert(Item(title: "After the undo, grape"))
        try context.save()
        try verify(context, words, "insert after the undo")
    }

    @Test func aFileWithTheOldTriggersLosesThemAndKeepsItsIndex() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("old.sqlite")
        do {
            let context = ModelContext(try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path)))
            context.insert(Item(title: "Old apple", notes: "from before"))
            try context.save()
        }
        // What a store from before kept the index with: triggers, and its own fingerprint.
        do {
            let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
            try database.execute("""
                CREATE TRIGGER "items__fts_insert" AFTER INSERT ON "items" BEGIN INSERT INTO "items_fts"(rowid, "title", "notes") VALUES (new._pk, new."title", new."notes"); END;
                UPDATE _slate_meta SET value = 1 WHERE key = 'schema_fingerprint';
                """)
        }
        let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path))
        let triggers = try container.pool.read { try $0.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") }
        #expect(triggers == .integer(0))
        let context = ModelContext(container)
        context.insert(Item(title: "New banana"))
        try context.save()
        // With the trigger left in place the new row would be indexed twice.
        try verify(context, words, "after the upgrade")
        #expect(try foundTitles(context, "apple") == ["Old apple"])
    }
}

import Foundation
@testable import SlateStore
import Testing
import TestDatabases

/// A save of a thousand changes or more (an import, a seed) runs with a 64 MiB page cache,
/// so that its pages are not written out mid-transaction and read back (a 100,000-task
/// insert took a quarter less time: BENCHMARKS.md, SlateStore); the cache goes back to its
/// size after, so a server's connections do not each keep 64 MiB.
@Suite(.enabled(if: !TestDatabase.isPostgreSQL, "SQLite's page cache"))
struct BulkPageCacheTests {
    private func writer(_ container: ModelContainer) throws -> (spilled: Int, cacheSize: DatabaseValue?) {
        try container.pool.write { database in
            let sqlite = try #require(database as? SQLiteDatabase)
            return (sqlite.pagesSpilled, try database.scalar("PRAGMA cache_size"))
        }
    }

    @Test func aLargeSaveSpillsNothingAndGivesTheCacheBack() throws {
        let folder = try TemporaryDirectory()  // a file: a store in memory never spills
        let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: folder.path("bulk.sqlite")))
        let before = try writer(container)
        // About 6 MiB of rows and search index: three times SQLite's default cache.
        let notes = String(repeating: "production notes ", count: 100)
        let context = ModelContext(container, undo: false)
        for index in 0..<3_000 { context.insert(Item(title: "Shot \(index)", notes: notes)) }
        try context.save()
        let after = try writer(container)
        #expect(after.spilled == before.spilled, "no page of the save was written out before its commit")
        #expect(after.cacheSize == before.cacheSize, "the cache is back to its size")
        #expect(try context.fetchCount(FetchDescriptor<Item>()) == 3_000)
    }
}

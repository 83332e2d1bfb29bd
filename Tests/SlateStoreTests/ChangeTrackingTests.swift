import Foundation
@testable import SlateStore
import TestDatabases
import Testing

@Suite struct ChangeTrackingTests {
    @Test func everyCommitBumpsTheRevisionAndStampsItsRows() throws {
        let context = ModelContext(try makeContainer())
        let first = Item(title: "One")
        var second = Item(title: "Two")
        context.insert(first)
        context.insert(second)
        #expect(try context.save()?.revision == 1)
        second.title = "Two, edited"
        context.update(second)
        #expect(try context.save()?.revision == 2)
        #expect(try context.revisioned(Item.self, id: first.id)?.revision == 1)
        #expect(try context.revisioned(Item.self, id: second.id)?.revision == 2)
        #expect(try context.container.currentRevision() == 2)
        #expect(try context.save() == nil, "nothing staged, nothing committed")
    }

    @Test func changesSinceARevisionListUpsertsAndTombstones() throws {
        let context = ModelContext(try makeContainer())
        let kept = Item(title: "Kept")
        var edited = Item(title: "Edited")
        let removed = Item(title: "Removed")
        [kept, edited, removed].forEach(context.insert)
        try context.save()
        let token = try context.container.currentRevision()

        edited.isDone = true
        context.update(edited)
        context.delete(removed)
        let added = Item(title: "Added")
        context.insert(added)
        try context.save()

        let changes = try context.changes(of: Item.self, since: token)
        #expect(Set(changes.upserted.map(\.id)) == [edited.id, added.id])
        #expect(changes.upserted.first { $0.id == edited.id }?.isDone == true)
        #expect(changes.deleted == [removed.id])
        #expect(changes.revision == token + 1)

        let nothing = try context.changes(of: Item.self, since: changes.revision)
        #expect(nothing.upserted.isEmpty && nothing.deleted.isEmpty)
        let everything = try context.changes(of: Item.self, since: 0)
        #expect(everything.upserted.count == 3 && everything.deleted == [removed.id])
    }

    @Test func recreatingADeletedIdClearsItsTombstone() throws {
        let context = ModelContext(try makeContainer(), undo: false)
        let item = Item(title: "Phoenix")
        context.insert(item)
        try context.save()
        context.delete(item)
        try context.save()
        context.insert(item)
        try context.save()
        #expect(try context.changes(of: Item.self, since: 0).deleted.isEmpty)
    }

    @Test func subscribersReceiveEachCommitWithItsIds() async throws {
        let container = try makeContainer()
        let commits = container.commits()
        let context = ModelContext(container)
        var item = Item(title: "Live")
        context.insert(item)
        try context.save()
        item.title = "Live, edited"
        context.update(item)
        try context.save()
        context.delete(item)
        try context.save()

        var received: [Commit] = []
        for await commit in commits {
            received.append(commit)
            if received.count == 3 { break }
        }
        #expect(received.map(\.revision) == [1, 2, 3])
        #expect(received.map { $0.changes(of: Item.self) } == [
            TableChanges(inserted: [item.id]), TableChanges(updated: [item.id]), TableChanges(deleted: [item.id]),
        ])
        #expect(received.allSatisfy { $0.origin == .save && !$0.affects(Owner.self) })
    }

    @Test func writesFromAnotherContainerOnTheSameFileAreReported() throws {
        let folder = try TemporaryDirectory()
        let configuration = TestDatabase.shared(path: folder.path("shared.sqlite"))
        let server = try ModelContainer(for: allModels, configuration: configuration)
        let cli = try ModelContainer(for: allModels, configuration: configuration)
        #expect(try server.publishExternalChanges() == nil)

        let item = Item(title: "From the CLI")
        let cliContext = ModelContext(cli)
        cliContext.insert(item)
        try cliContext.save()

        let commit = try #require(try server.publishExternalChanges())
        #expect(commit.origin == .external)
        #expect(commit.changes(of: Item.self).updated == [item.id])
        #expect(try server.publishExternalChanges() == nil, "reported once")

        // The server's own commit is not news; a later CLI commit still is.
        let serverContext = ModelContext(server)
        let own = Item(title: "From the server")
        serverContext.insert(own)
        try serverContext.save()
        let later = Item(title: "CLI again")
        cliContext.insert(later)
        try cliContext.save()
        let next = try #require(try server.publishExternalChanges())
        #expect(next.changes(of: Item.self).updated == [later.id])

        let reopened = try ModelContainer(for: allModels, configuration: configuration)
        #expect(try reopened.publishExternalChanges() == nil, "history before opening is not news")
    }

    /// The watcher looks every 50 ms while the server commits: each look must reuse the
    /// same prepared statements (pasting the skipped revisions into the SQL cached a new
    /// statement per look, a leak that grew with every write).
    @Test func lookingForOtherProcessesCommitsReusesItsStatements() throws {
        let folder = try TemporaryDirectory()
        let configuration = TestDatabase.shared(path: folder.path("shared.sqlite"))
        let server = try ModelContainer(for: allModels, configuration: configuration)
        let cli = try ModelContainer(for: allModels, configuration: configuration)
        let serverContext = ModelContext(server)
        let cliContext = ModelContext(cli)
        var statementCounts: [Int] = []
        for round in 0..<6 {
            serverContext.insert(Item(title: "Server \(round)"))
            try serverContext.save()
            #expect(try server.publishExternalChanges() == nil, "only its own commit: nothing to report")
            serverContext.insert(Item(title: "Server again \(round)"))
            try serverContext.save()
            let external = Item(title: "CLI \(round)")
            cliContext.insert(external)
            try cliContext.save()
            let commit = try #require(try server.publishExternalChanges())
            #expect(commit.changes(of: Item.self).updated == [external.id])
            statementCounts.append(try server.pool.read { $0.cachedStatementCount })
        }
        #expect(Set(statementCounts.dropFirst()).count == 1, "\(statementCounts)")
    }

    @Test func changeStampsMoveWithCommitsToTheirTablesOnly() throws {
        let folder = try TemporaryDirectory()
        let configuration = TestDatabase.shared(path: folder.path("shared.sqlite"))
        let server = try ModelContainer(for: allModels, configuration: configuration)
        let context = ModelContext(server)
        let start = try #require(try server.changeStamp(of: [Item.self]))
        #expect(try server.changeStamp(of: [Item.self]) == start, "stable without commits")

        context.insert(Owner(name: "Ada"))
        try context.save()
        #expect(try server.changeStamp(of: [Item.self]) == start, "another table's commit")
        let afterOwner = try #require(try server.changeStamp(of: [Item.self, Owner.self]))
        #expect(afterOwner != start)

        context.insert(Item(title: "One"))
        try context.save()
        let afterItem = try #require(try server.changeStamp(of: [Item.self]))
        #expect(afterItem != start)

        // Another process's commit: unknown until reported, then a new stamp.
        let cli = ModelContext(try ModelContainer(for: allModels, configuration: configuration))
        cli.insert(Item(title: "From the CLI"))
        try cli.save()
        #expect(try server.changeStamp(of: [Item.self]) == nil)
        #expect(try server.changeStamp(of: [Owner.self]) == nil)
        _ = try server.publishExternalChanges()
        let afterCLI = try #require(try server.changeStamp(of: [Item.self]))
        #expect(afterCLI != afterItem)
        #expect(try server.changeStamp(of: [Owner.self]) == afterOwner)
    }

    @Test func theStatementCacheIsBounded() throws {
        let container = try makeContainer()
        try container.pool.write { database in
            for value in 0..<(SQLiteDatabase.statementCacheLimit + 10) {
                _ = try database.scalar("SELECT \(value)")
            }
            #expect(database.cachedStatementCount <= SQLiteDatabase.statementCacheLimit)
        }
    }
}

@Suite struct TransactionTests {
    @Test func nestedTransactionsAreSavepointsThatRollBackAlone() throws {
        let container = try makeContainer()
        try container.pool.write { database in
            try database.transaction {
                try database.execute("INSERT INTO owners(id, name, _rev) VALUES ('A', 'kept', 1)", [])
                #expect(throws: StoreError.self) {
                    try database.transaction {
                        try database.execute("INSERT INTO owners(id, name, _rev) VALUES ('B', 'inner', 1)", [])
                        try database.execute("INSERT INTO owners(id, name, _rev) VALUES ('A', 'duplicate', 1)", [])
                    }
                }
                try database.transaction {
                    try database.execute("INSERT INTO owners(id, name, _rev) VALUES ('C', 'inner kept', 1)", [])
                }
            }
        }
        let names = try container.pool.read { try $0.rows("SELECT name FROM owners ORDER BY id") }.map { $0["name"] }
        #expect(names == [.text("kept"), .text("inner kept")])
    }
}

/// A partitioned model: rows belong to an owner, and changes are read per owner.
struct Memo: PersistentModel, Equatable {
    var id = UUID()
    var ownerID: UUID
    var text: String

    static let schema = ModelSchema<Memo>(
        table: "memos", columns: [.column(\.ownerID, "ownerID"), .column(\.text, "text")], partition: "ownerID")
}

@Suite struct PartitionTests {
    @Test func tombstonesAndCommitsRecordThePartition() throws {
        let container = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let ana = UUID(), ben = UUID()
        let anas = Memo(ownerID: ana, text: "Ana's")
        let bens = Memo(ownerID: ben, text: "Ben's")
        context.insert(anas)
        context.insert(bens)
        let first = try #require(try context.save())
        #expect(first.touches(partition: ana) && first.touches(partition: ben))

        context.delete(bens)
        let deletion = try #require(try context.save())
        #expect(deletion.touches(partition: ben) && !deletion.touches(partition: ana))

        let forAna = try context.changes(of: Memo.self, since: 0, partition: ana)
        #expect(forAna.upserted == [anas] && forAna.deleted.isEmpty)
        let forBen = try context.changes(of: Memo.self, since: 0, partition: ben)
        #expect(forBen.upserted.isEmpty && forBen.deleted == [bens.id])

        let undone = try #require(try context.undo(in: ben))
        #expect(undone.commit.touches(partition: ben) && !undone.commit.touches(partition: ana))
        #expect(throws: StoreError.self) { _ = try context.changes(of: Item.self, since: 0, partition: ana) }
    }

    @Test func eachPartitionUndoesOnlyItsOwnChanges() throws {
        let context = ModelContext(try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration()))
        let ana = UUID(), ben = UUID()
        context.insert(Memo(ownerID: ana, text: "Ana 1"))
        try context.save(undoLabel: "Ana adds")
        context.insert(Memo(ownerID: ben, text: "Ben 1"))
        try context.save(undoLabel: "Ben adds")

        #expect(try context.undoLabel(in: ana) == "Ana adds")
        #expect(try context.undo(in: ana)?.label == "Ana adds")
        #expect(try context.fetch(FetchDescriptor<Memo>()).map(\.text) == ["Ben 1"], "Ben's later change is untouched")
        #expect(try context.canUndo(in: ana) == false)
        #expect(try context.canUndo() == false, "nothing in the shared history")
        #expect(try context.redo(in: ben) == nil)
        #expect(try context.redo(in: ana)?.label == "Ana adds")
    }
}

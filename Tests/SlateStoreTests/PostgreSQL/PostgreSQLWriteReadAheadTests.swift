import Foundation
import Synchronization
import TestDatabases
import Testing

@testable import SlateStore

/// A save reads the row it changes first in the round trip that takes the store sequence
/// (`PostgreSQLDatabase.expectInWrite`). The read must still come after the sequence's row
/// lock, so that a change committed by another node while this one waited is seen (and an
/// `If-Match` of the old revision refused, never overwritten), and an answer read ahead must
/// never be served once the transaction ran anything that could change it.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct PostgreSQLWriteReadAheadTests {
    struct Refused: Error {}

    func connection() throws -> (database: PostgreSQLDatabase, table: String) {
        let database = try PostgreSQLDatabase(location: PostgreSQLLocation(url: TestDatabase.postgreSQLURL!), lockTimeout: 5)
        let schema = "ahead_\(UUID().uuidString.prefix(8).lowercased())"
        try database.execute("CREATE SCHEMA \(schema); CREATE TABLE \(schema).items (n bigint NOT NULL); INSERT INTO \(schema).items VALUES (1)")
        return (database, "\(schema).items")
    }

    func read(_ table: String) -> ExpectedRead { ExpectedRead(sql: "SELECT n FROM \(table) ORDER BY n", arguments: []) }

    func values(_ table: String, _ database: PostgreSQLDatabase) throws -> [Int] {
        try database.rows("SELECT n FROM \(table) ORDER BY n", []).compactMap { Int.fromDatabaseValue($0["n"]) }
    }

    func writerRoundTrips(_ container: ModelContainer) throws -> Int {
        try container.pool.write { ($0 as? PostgreSQLDatabase)?.roundTrips ?? 0 }
    }

    @Test func aReadExpectedInAWriteTravelsAfterTheNextStatementAndSeesIt() throws {
        let (database, table) = try connection()
        let update = "UPDATE \(table) SET n = n + 10"
        _ = try database.prepared(update, [])
        _ = try database.prepared(read(table).sql, [])
        try database.transaction {
            database.expectInWrite([read(table)])
            let before = database.roundTrips
            try database.execute(update, [])
            #expect(database.expectedAnswers.count == 1)
            #expect(try values(table, database) == [11])
            #expect(database.roundTrips == before + 1, "the read came with the UPDATE")
        }
    }

    @Test func anAnswerReadAheadIsDroppedByAnyOtherStatementOfTheWrite() throws {
        let (database, table) = try connection()
        try database.transaction {
            database.expectInWrite([read(table)])
            try database.execute("UPDATE \(table) SET n = n + 10", [])
            try database.executeWithoutWaiting("INSERT INTO \(table) (n) VALUES (?)", [.integer(5)])
            #expect(database.expectedAnswers.isEmpty)
            #expect(try values(table, database) == [5, 11])

            database.expectInWrite([read(table)])
            try database.execute("UPDATE \(table) SET n = n + 100", [])
            try database.execute("UPDATE \(table) SET n = n + 1000", [])
            #expect(try values(table, database) == [1105, 1111])
        }
    }

    /// A savepoint that sent work and then queued more before its body threw: the rollback
    /// must undo what was sent. (It used to take a non-empty queue for a SAVEPOINT never
    /// sent, drop the queue and roll nothing back: the sent UPDATE was committed.)
    @Test func aSavepointThatSentWorkAndQueuedMoreRollsBackWhatWasSent() throws {
        let (database, table) = try connection()
        try database.transaction {
            #expect(throws: Refused.self) {
                try database.transaction {
                    try database.execute("UPDATE \(table) SET n = n + 10", [])  // goes out with the SAVEPOINT
                    try database.executeWithoutWaiting("INSERT INTO \(table) (n) VALUES (?)", [.integer(5)])  // waits
                    throw Refused()
                }
            }
            #expect(database.unsent.isEmpty)
            #expect(try values(table, database) == [1])
            try database.execute("UPDATE \(table) SET n = n + 100", [])
        }
        #expect(try values(table, database) == [101])
    }

    @Test func anAnswerReadAheadInsideASavepointIsGoneWhenItRollsBack() throws {
        let (database, table) = try connection()
        try database.transaction {
            #expect(throws: Refused.self) {
                try database.transaction {
                    database.expectInWrite([read(table)])
                    try database.execute("UPDATE \(table) SET n = n + 10", [])
                    throw Refused()
                }
            }
            #expect(database.expectedAnswers.isEmpty)
            let after = try values(table, database)
            #expect(after == [1])
        }
    }

    @Test func aSaveReadsTheRowItChangesInTheRoundTripThatTakesTheSequence() throws {
        let container = try ModelContainer(for: allModels, configuration: TestDatabase.configuration())
        var item = Item(title: "Draft")
        let first = ModelContext(container)
        first.insert(item)
        try first.save()
        var counted: [Int] = []
        for title in ["Second draft", "Final"] {  // the first prepares the statements
            item.title = title
            let outcomes = container.writeTogether([{
                let before = try writerRoundTrips(container)
                let context = ModelContext(container)
                context.update(item)
                try context.save()
                counted.append(try writerRoundTrips(container) - before)
            }])
            #expect(outcomes.allSatisfy { $0 == nil })
        }
        // BEGIN, SAVEPOINT, the sequence's UPDATE and the row's read; the row's UPDATE; the undo
        // entry with RELEASE. (The read was a round trip of its own: 4.)
        #expect(counted.last == 3)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Item>()).map(\.title) == ["Final"])
    }

    @Test func readsAfterASaveInsideATransactionComeWithItsReleaseAndSeeWhatItWrote() throws {
        let container = try ModelContainer(for: allModels, configuration: TestDatabase.configuration())
        var item = Item(title: "Draft")
        let first = ModelContext(container)
        first.insert(item)
        try first.save()
        var counted: [Int] = []
        var readBack: [String] = []
        for title in ["Second draft", "Final"] {  // the first prepares the statements
            item.title = title
            let outcomes = container.writeTogether([{
                let context = ModelContext(container)
                context.update(item)
                context.readsAfterSave = [.revisioned(Item.self, id: item.id)]
                let before = try writerRoundTrips(container)
                try context.save()
                readBack.append(try ModelContext(container).revisioned(Item.self, id: item.id)?.model.title ?? "")
                counted.append(try writerRoundTrips(container) - before)
            }])
            #expect(outcomes.allSatisfy { $0 == nil })
        }
        #expect(readBack == ["Second draft", "Final"])
        // As the save alone (3): the read back went with its RELEASE.
        #expect(counted.last == 3)
    }

    @Test func aReadAfterASaveIsDroppedWhenTheTransactionRunsAnythingElseFirst() throws {
        let container = try ModelContainer(for: allModels, configuration: TestDatabase.configuration())
        var item = Item(title: "Draft")
        let first = ModelContext(container)
        first.insert(item)
        try first.save()
        var seen = ""
        let outcomes = container.writeTogether([{
            item.title = "Saved"
            let context = ModelContext(container)
            context.update(item)
            context.readsAfterSave = [.revisioned(Item.self, id: item.id)]
            try context.save()
            item.title = "Changed after"
            let next = ModelContext(container)
            next.update(item)
            try next.save()
            seen = try ModelContext(container).revisioned(Item.self, id: item.id)?.model.title ?? ""
        }])
        #expect(outcomes.allSatisfy { $0 == nil })
        #expect(seen == "Changed after")
    }

    @Test func theRowReadAheadComesAfterTheSequenceLockSoAnotherNodesChangeIsNeverOverwritten() throws {
        let configuration = TestDatabase.shared(path: "read-ahead-\(UUID().uuidString)")
        let mine = try ModelContainer(for: allModels, configuration: configuration)
        let theirs = try ModelContainer(for: allModels, configuration: configuration)
        let item = Item(title: "Draft")
        let context = ModelContext(mine)
        context.insert(item)
        try context.save()
        let read = try #require(try ModelContext(mine).revisioned(Item.self, id: item.id))
        let watcher = try PostgreSQLDatabase(location: PostgreSQLLocation(url: TestDatabase.postgreSQLURL!), lockTimeout: 5)
        let writerPID = try mine.pool.write { try $0.scalar("SELECT pg_backend_pid()", []) } ?? .null

        // Their change holds the store sequence's row until it is let go.
        let saved = DispatchSemaphore(value: 0)
        let letGo = DispatchSemaphore(value: 0)
        let theirWrite = Thread {
            _ = theirs.writeTogether([{
                var changed = item
                changed.title = "Theirs"
                let context = ModelContext(theirs)
                context.update(changed)
                try context.save()
                saved.signal()
                letGo.wait()
            }])
        }
        theirWrite.start()
        saved.wait()
        // Mine, from the revision read before theirs, waits for the row.
        let outcome = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let myWrite = Thread {
            var changed = item
            changed.title = "Mine"
            let context = ModelContext(mine)
            context.update(changed, expectedRevision: read.revision)
            do { try context.save() } catch { outcome.withLock { $0 = error } }
            done.signal()
        }
        myWrite.start()
        // Until my writer waits on the row lock.
        let waiting = try watcher.seesWaitingOnALock(writerPID)
        #expect(waiting, "my save never waited for the store sequence's row")
        letGo.signal()
        done.wait()
        let error = outcome.withLock { $0 }
        guard case StoreError.conflict? = error as? StoreError else {
            Issue.record("mine must be refused as a conflict, got \(String(describing: error))")
            return
        }
        #expect(try ModelContext(mine).fetch(FetchDescriptor<Item>()).map(\.title) == ["Theirs"])
    }
}

import Foundation
import Synchronization
import TestDatabases
import Testing

@testable import SlateStore

/// What a write's first round trips carry on PostgreSQL:
/// - a save takes its first row's partition revision in the statement that takes the store
///   sequence (`ChangeLog.sequenceWithPartitionSQL`), so the numbers must be exactly those two
///   statements' numbers, also after a savepoint that took them rolls back;
/// - a second read of the store sequence right after the first is answered by it
///   (`PostgreSQLDatabase.sequenceReadJustBefore`), and never once anything ran between;
/// - a read named before the write's first statement (`ModelContainer.expectInWrite`) comes
///   with that statement.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct PostgreSQLWriteStartTests {
    struct Refused: Error {}

    /// Saves `memos` as new rows, in one save.
    func insert(_ memos: Memo..., into container: ModelContainer) throws {
        let context = ModelContext(container)
        for memo in memos { context.insert(memo) }
        try context.save()
    }

    func writerRoundTrips(_ container: ModelContainer) throws -> Int {
        try container.pool.write { ($0 as? PostgreSQLDatabase)?.roundTrips ?? 0 }
    }

    /// The partition's counter, its highest stamped revision (rows and tombstones), and the
    /// revisions the commit log holds for it, in order.
    func ledger(_ container: ModelContainer, _ owner: UUID) throws -> (counter: Int, stamped: Int, logged: [Int]) {
        try container.pool.write { database in
            let partition = DatabaseValue.text(owner.uuidString)
            let counter = try database.scalar("SELECT value FROM _slate_revisions WHERE partition = ?", [partition])
            let rows = try database.scalar("SELECT max(\"_rev\") FROM memos WHERE \"ownerID\" = ?", [partition])
            let tombstones = try database.scalar("SELECT max(revision) FROM _slate_tombstones WHERE partition = ?", [partition])
            let logged = try database.rows("SELECT revision FROM _slate_commits WHERE partition = ? ORDER BY seq", [partition])
            return (
                counter.flatMap(Int.fromDatabaseValue) ?? 0,
                max(rows.flatMap(Int.fromDatabaseValue) ?? 0, tombstones.flatMap(Int.fromDatabaseValue) ?? 0),
                logged.compactMap { Int.fromDatabaseValue($0["revision"]) }
            )
        }
    }

    @Test func aSaveTakesItsRowsPartitionRevisionWithTheStoreSequence() throws {
        let container = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let ana = UUID(), ben = UUID()
        var memo = Memo(ownerID: ana, text: "Call the gaffer")
        try insert(memo, Memo(ownerID: ben, text: "Ben's"), into: container)
        let bensBefore = try container.currentRevision(partition: ben)
        var counted: [Int] = []
        for text in ["Call the gaffer at 9", "Call the gaffer at 10"] {  // the first prepares the statements
            memo.text = text
            let outcomes = container.writeTogether([{
                let before = try writerRoundTrips(container)
                let context = ModelContext(container)
                context.update(memo)
                try context.save()
                counted.append(try writerRoundTrips(container) - before)
            }])
            #expect(outcomes.allSatisfy { $0 == nil })
        }
        // BEGIN, SAVEPOINT, the sequence and the partition's revision in one statement, and the
        // row's read; the row's UPDATE with the commit log's row; the undo entry with RELEASE.
        // (The partition's revision was a round trip of its own: 4.)
        #expect(counted.last == 3)
        let stored = try #require(try ModelContext(container).revisioned(Memo.self, id: memo.id))
        #expect(stored.model.text == "Call the gaffer at 10")
        let after = try ledger(container, ana)
        #expect(stored.revision == after.counter)
        #expect(after.stamped == after.counter)
        #expect(after.logged.suffix(2) == [after.counter - 1, after.counter], "each save's revision is in the commit log")
        #expect(try container.currentRevision(partition: ana) == after.counter)
        #expect(try container.currentRevision(partition: ben) == bensBefore, "another partition's numbers never move")
        let feed = try ModelContext(container).changes(of: Memo.self, since: after.counter - 1, partition: ana)
        #expect(feed.upserted.map(\.id) == [memo.id])
    }

    @Test func numbersTakenBySaveThatRolledBackAreTakenAgainAndNeverStampTwoChanges() throws {
        let container = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let ana = UUID()
        let memo = Memo(ownerID: ana, text: "Book the crane")
        try insert(memo, into: container)
        let stale = try #require(try ModelContext(container).revisioned(Memo.self, id: memo.id)).revision
        let touched = ModelContext(container)
        touched.update(Memo(id: memo.id, ownerID: ana, text: "Book the crane, 2 days"))
        try touched.save()
        let before = try ledger(container, ana)

        var refused: (any Error)?
        var deletedAt = 0, insertedAt = 0
        let outcomes = container.writeTogether([{
            // Takes the sequence and the partition's revision, then finds the row changed:
            // its savepoint rolls back, and the next save takes the same numbers again.
            let late = ModelContext(container)
            late.update(Memo(id: memo.id, ownerID: ana, text: "Late edit"), expectedRevision: stale)
            do { try late.save() } catch { refused = error }
            // A delete names no partition before it reads the row: its revision is taken on its own.
            let deletion = ModelContext(container)
            deletion.delete(memo)
            deletedAt = try #require(try deletion.save()).revision
            let insertion = ModelContext(container)
            insertion.insert(Memo(ownerID: ana, text: "Hire the generator"))
            insertedAt = try #require(try insertion.save()).revision
        }])
        #expect(outcomes.allSatisfy { $0 == nil })
        #expect(refused != nil, "the late edit was refused")
        let after = try ledger(container, ana)
        #expect(after.counter == before.counter + 2, "the delete and the insert took one revision each")
        #expect(after.stamped == after.counter)
        #expect(after.logged.suffix(2) == [before.counter + 1, before.counter + 2])
        #expect(insertedAt > deletedAt)
        let feed = try ModelContext(container).changes(of: Memo.self, since: before.counter, partition: ana)
        #expect(feed.upserted.map(\.text) == ["Hire the generator"])
        #expect(feed.deleted == [memo.id])
    }

    @Test func aSecondReadOfTheSequenceRightAfterTheFirstIsAnsweredByIt() throws {
        let configuration = TestDatabase.shared(path: "write-start-\(UUID().uuidString)")
        let container = try ModelContainer(for: [Memo.self], configuration: configuration)
        let other = try ModelContainer(for: [Memo.self], configuration: configuration)
        var seen: [Int] = []
        var trips: [Int] = []
        _ = container.writeTogether([{ _ = try container.currentRevision() }])  // prepares the statement
        let outcomes = container.writeTogether([{
            let before = try writerRoundTrips(container)
            seen.append(try container.currentRevision())
            // Another node commits now; the next read, right after the first, is as if made with it.
            try insert(Memo(ownerID: UUID(), text: "Theirs"), into: other)
            seen.append(try container.currentRevision())
            trips.append(try writerRoundTrips(container) - before)
            // Anything run in between and the sequence is read again: it sees their commit.
            _ = try ModelContext(container).fetchCount(FetchDescriptor<Memo>())
            seen.append(try container.currentRevision())
        }])
        #expect(outcomes.allSatisfy { $0 == nil })
        #expect(trips == [1])
        #expect(seen[0] == seen[1])
        #expect(seen[2] == seen[0] + 1)
        // And a new transaction reads it again.
        let next = container.writeTogether([{ seen.append(try container.currentRevision()) }])
        #expect(next.allSatisfy { $0 == nil })
        #expect(seen[3] == seen[2])
        try insert(Memo(ownerID: UUID(), text: "Theirs again"), into: other)
        _ = container.writeTogether([{ seen.append(try container.currentRevision()) }])
        #expect(seen[4] == seen[3] + 1)
    }

    @Test func aReadNamedBeforeAWritesFirstStatementComesWithIt() throws {
        let container = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let memo = Memo(ownerID: UUID(), text: "Scout the location")
        try insert(memo, into: container)
        var trips: [Int] = []
        var read: [String] = []
        for _ in 0..<2 {  // the first prepares the statements
            let outcomes = container.writeTogether([{
                let before = try writerRoundTrips(container)
                container.expectInWrite([.revisioned(Memo.self, id: memo.id)])
                _ = try container.currentRevision()
                read.append(try ModelContext(container).revisioned(Memo.self, id: memo.id)?.model.text ?? "")
                trips.append(try writerRoundTrips(container) - before)
            }])
            #expect(outcomes.allSatisfy { $0 == nil })
        }
        #expect(read == ["Scout the location", "Scout the location"])
        #expect(trips.last == 1, "BEGIN, the sequence and the row in one round trip")
    }

    /// A redo takes the store sequence before it pops its entry, as every save does. It used
    /// to pop first: it then held the entry's row while waiting for the sequence, which a save
    /// of the same account on another node held while it waited to clear that redo stack.
    @Test func aRedoWaitingForAnotherNodesSaveHoldsNothingThatSaveNeeds() throws {
        let configuration = TestDatabase.shared(path: "redo-order-\(UUID().uuidString)")
        let mine = try ModelContainer(for: [Memo.self], configuration: configuration)
        let theirs = try ModelContainer(for: [Memo.self], configuration: configuration)
        let ana = UUID(), ben = UUID()
        var memo = Memo(ownerID: ana, text: "Rent the dolly")
        try insert(memo, Memo(ownerID: ben, text: "Ben's"), into: mine)
        memo.text = "Rent the dolly and the track"
        let edit = ModelContext(mine)
        edit.update(memo)
        try edit.save()
        #expect(try ModelContext(mine).undo(in: ana) != nil)  // ana's redo stack holds the edit
        let watcher = try PostgreSQLDatabase(location: PostgreSQLLocation(url: TestDatabase.postgreSQLURL!), lockTimeout: 5)
        let myPID = try mine.pool.write { try $0.scalar("SELECT pg_backend_pid()", []) } ?? .null

        // Their node holds the store sequence (a save of Ben's), then saves one of Ana's, which
        // clears her redo stack.
        let holding = DispatchSemaphore(value: 0)
        let letGo = DispatchSemaphore(value: 0)
        let theirOutcomes = Mutex<[(any Error)?]>([])
        let theirsDone = DispatchSemaphore(value: 0)
        let theirWrite = Thread {
            let outcomes = theirs.writeTogether([{
                let first = ModelContext(theirs)
                first.insert(Memo(ownerID: ben, text: "Ben's second"))
                try first.save()
                holding.signal()
                letGo.wait()
                let second = ModelContext(theirs)
                second.insert(Memo(ownerID: ana, text: "Book the grip truck"))
                try second.save()
            }])
            theirOutcomes.withLock { $0 = outcomes }
            theirsDone.signal()
        }
        theirWrite.start()
        holding.wait()
        // My redo of Ana's edit, meanwhile, waits for the sequence.
        let redone = Mutex<Result<Bool, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let myRedo = Thread {
            redone.withLock { $0 = Result { try ModelContext(mine).redo(in: ana) != nil } }
            done.signal()
        }
        myRedo.start()
        let waiting = try watcher.seesWaitingOnALock(myPID)
        #expect(waiting, "my redo never waited for the store sequence's row")
        letGo.signal()
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(theirsDone.wait(timeout: .now() + 20) == .success)
        #expect(theirOutcomes.withLock { $0.allSatisfy { $0 == nil } }, "their save went through (no deadlock)")
        switch redone.withLock({ $0 }) {
        case .success(let didRedo)?: #expect(!didRedo, "their save cleared Ana's redo stack first: nothing to redo")
        case .failure(let error)?: Issue.record("my redo failed: \(error)")
        case nil: Issue.record("my redo never finished")
        }
        let texts = try ModelContext(mine).fetch(FetchDescriptor<Memo>()).filter { $0.ownerID == ana }.map(\.text).sorted()
        #expect(texts == ["Book the grip truck", "Rent the dolly"])
    }
}

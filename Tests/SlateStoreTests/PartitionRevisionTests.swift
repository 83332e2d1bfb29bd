import Foundation
@testable import SlateStore
import Synchronization
import TestDatabases
import Testing

// Revisions are counted per partition (an account): what one partition's readers see
// (row revisions, the change feed, its current revision, undo by change) never moves
// with another partition's writes.

@Suite struct PartitionRevisionTests {
    @Test func eachPartitionCountsItsOwnRevisions() throws {
        let container = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let ana = UUID(), ben = UUID()
        var anaRevisions: [Int] = []
        for number in 1...3 {
            context.insert(Memo(ownerID: ana, text: "Ana \(number)"))
            anaRevisions.append(try #require(try context.save()?.revision(in: ana)))
            // Ben writes twice between each of Ana's writes.
            for _ in 0..<2 {
                context.insert(Memo(ownerID: ben, text: "Ben"))
                let commit = try #require(try context.save())
                #expect(commit.revision(in: ana) == nil && commit.revisions.keys.sorted() == [ben.uuidString])
            }
        }
        #expect(anaRevisions == [1, 2, 3])
        #expect(try container.currentRevision(partition: ana) == 3)
        #expect(try container.currentRevision(partition: ben) == 6)
        #expect(try container.currentRevision() == 9, "the store sequence counts every commit")

        let anas = try context.changes(of: Memo.self, since: 0, partition: ana)
        #expect(anas.revision == 3 && anas.upserted.map(\.text) == ["Ana 1", "Ana 2", "Ana 3"])
        let stored = try context.fetchRevisioned(FetchDescriptor<Memo>(predicate: #Predicate { $0.ownerID == ana }))
        #expect(stored.map(\.revision).sorted() == [1, 2, 3], "each row carries its partition's revision")
        let lastOfAna = try context.changes(of: Memo.self, since: 2, partition: ana)
        #expect(lastOfAna.upserted.map(\.text) == ["Ana 3"] && lastOfAna.revision == 3)
    }

    @Test func anotherPartitionsWritesAndDeletionsLeaveRevisionsAndFeedsAlone() throws {
        let container = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let ana = UUID(), ben = UUID()
        let anas = Memo(ownerID: ana, text: "Ana's")
        let bens = Memo(ownerID: ben, text: "Ben's")
        context.insert(anas)
        context.insert(bens)
        let both = try #require(try context.save())
        #expect(both.revision(in: ana) == 1 && both.revision(in: ben) == 1)
        let anaBefore = try context.changes(of: Memo.self, since: 0, partition: ana)
        let etag = try #require(try context.revisioned(Memo.self, id: anas.id)).revision

        var edited = bens
        edited.text = "Ben's, edited"
        context.update(edited)
        try context.save()
        context.delete(edited)
        let deletion = try #require(try context.save())
        #expect(deletion.revision(in: ben) == 3)

        #expect(try container.currentRevision(partition: ana) == anaBefore.revision)
        #expect(try context.revisioned(Memo.self, id: anas.id)?.revision == etag)
        let anaAfter = try context.changes(of: Memo.self, since: anaBefore.revision, partition: ana)
        #expect(anaAfter.upserted.isEmpty && anaAfter.deleted.isEmpty && anaAfter.revision == anaBefore.revision)
        let benAfter = try context.changes(of: Memo.self, since: 1, partition: ben)
        #expect(benAfter.upserted.isEmpty && benAfter.deleted == [bens.id] && benAfter.revision == 3)
    }

    @Test func aFeedAcrossPartitionsGoesByTheStoreSequence() throws {
        let container = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let ana = UUID(), ben = UUID()
        context.insert(Memo(ownerID: ana, text: "Ana 1"))
        context.insert(Memo(ownerID: ben, text: "Ben 1"))
        try context.save()
        let first = try context.changes(of: Memo.self, since: 0)
        #expect(Set(first.upserted.map(\.text)) == ["Ana 1", "Ben 1"])

        let gone = Memo(ownerID: ben, text: "Ben 2")
        context.insert(gone)
        try context.save()
        context.insert(Memo(ownerID: ana, text: "Ana 2"))
        context.delete(gone)
        try context.save()
        let next = try context.changes(of: Memo.self, since: first.revision)
        #expect(next.upserted.map(\.text) == ["Ana 2"])
        #expect(next.deleted == [gone.id])
        #expect(next.revision == 3)
        let none = try context.changes(of: Memo.self, since: next.revision)
        #expect(none.upserted.isEmpty && none.deleted.isEmpty)
    }

    @Test func undoByChangeUsesThePartitionsRevision() throws {
        let container = try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let ana = UUID(), ben = UUID()
        context.insert(Memo(ownerID: ben, text: "Ben 1"))
        try context.save(undoLabel: "Ben adds")
        let memo = Memo(ownerID: ana, text: "Ana 1")
        context.insert(memo)
        let change = try #require(try context.save(undoLabel: "Ana adds")?.revision(in: ana))
        #expect(change == 1)
        context.insert(Memo(ownerID: ana, text: "Ana 2"))
        try context.save(undoLabel: "Ana adds again")

        let undone = try #require(try context.undo(revision: change, in: ana))
        #expect(undone.label == "Ana adds")
        #expect(undone.commit.revision(in: ana) == 3 && undone.commit.revision(in: ben) == nil)
        #expect(try context.model(Memo.self, id: memo.id) == nil)
        #expect(try context.changes(of: Memo.self, since: 2, partition: ana).deleted == [memo.id])
        #expect(try container.currentRevision(partition: ben) == 1)
    }

    /// A file written before per-partition revisions (one store-wide counter stamped on
    /// every row; no counters, no commit log) opens with every row, every partition
    /// counting on from the store's last revision, so no number a client holds comes again.
    @Test func aFileFromBeforePartitionRevisionsIsUpgraded() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("old.sqlite")
        let ana = UUID(), ben = UUID()
        let anas = [Memo(ownerID: ana, text: "Ana 1"), Memo(ownerID: ana, text: "Ana 2")]
        let bens = [Memo(ownerID: ben, text: "Ben 1"), Memo(ownerID: ben, text: "Ben 2")]
        do {
            let container = try ModelContainer(for: [Memo.self], configuration: ModelConfiguration(path: path))
            let context = ModelContext(container)
            for memo in [anas[0], bens[0], anas[1], bens[1]] {
                context.insert(memo)
                try context.save()
            }
            context.delete(bens[1])
            try context.save()
            // Back to the old layout: store-wide revisions 1…5 on rows and tombstones.
            try container.pool.write { database in
                try database.execute("""
                    DROP TABLE _slate_revisions;
                    DROP TABLE _slate_commits;
                    DELETE FROM _slate_meta WHERE key IN ('revision_floor', 'commit_log_floor');
                    UPDATE _slate_meta SET value = 0 WHERE key = 'schema_fingerprint';
                    UPDATE _slate_meta SET value = 5 WHERE key = 'revision';
                    DROP INDEX memos__partition_rev;
                    CREATE INDEX memos__rev ON memos(_rev);
                    UPDATE _slate_tombstones SET revision = 5;
                    """)
                for (memo, revision) in [(anas[0], 1), (bens[0], 2), (anas[1], 3)] {
                    try database.execute("UPDATE memos SET _rev = ? WHERE id = ?", [.integer(Int64(revision)), memo.id.databaseValue])
                }
            }
        }
        let container = try ModelContainer(for: [Memo.self], configuration: ModelConfiguration(path: path))
        #expect(container.migrationBackup != nil, "the file was copied before it was upgraded")
        let context = ModelContext(container)
        #expect(Set(try context.fetch(FetchDescriptor<Memo>()).map(\.text)) == ["Ana 1", "Ana 2", "Ben 1"])
        #expect(try container.currentRevision(partition: ana) == 5)
        #expect(try container.currentRevision(partition: ben) == 5)
        // Tokens handed out before the upgrade still read exactly what came after them.
        #expect(try context.changes(of: Memo.self, since: 1, partition: ana).upserted.map(\.text) == ["Ana 2"])
        #expect(try context.changes(of: Memo.self, since: 4, partition: ben).deleted == [bens[1].id])

        context.insert(Memo(ownerID: ana, text: "Ana 3"))
        let commit = try #require(try context.save())
        #expect(commit.revision(in: ana) == 6)
        #expect(try container.currentRevision(partition: ben) == 5)
        #expect(try context.changes(of: Memo.self, since: 5, partition: ana).upserted.map(\.text) == ["Ana 3"])
        #expect(try context.changes(of: Memo.self, since: 5, partition: ben).upserted.isEmpty)
        let indexes = try container.pool.read { try $0.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memos'") }
            .compactMap { String.fromDatabaseValue($0["name"]) }
        #expect(indexes.contains("memos__partition_rev") && !indexes.contains("memos__rev"))
    }

    /// Two writers on one file, one in this container and one through another (as the
    /// CLI writes while `slate serve` runs): every commit of either is announced once, and
    /// in each partition under a revision of its own.
    @Test func commitsOfTwoWritersAreEachAnnouncedOncePerPartition() async throws {
        let folder = try TemporaryDirectory()
        let configuration = TestDatabase.shared(path: folder.path("shared.sqlite"), busyTimeout: 30)
        let server = try ModelContainer(for: [Memo.self], configuration: configuration)
        let cli = try ModelContainer(for: [Memo.self], configuration: configuration)
        let ana = UUID(), ben = UUID()
        let commits = server.commits()
        let perWriter = 40
        let collected = Task {
            var seen: [Commit] = []
            var ids: Set<UUID> = []
            for await commit in commits {
                seen.append(commit)
                let memos = commit.changes(of: Memo.self)
                ids.formUnion(memos.inserted.union(memos.updated))
                if ids.count >= 2 * perWriter { break }
            }
            return seen
        }
        let done = Atomic<Int>(0)
        let watcher = Thread {
            while done.load(ordering: .acquiring) < 2 {
                _ = try? server.publishExternalChanges()
                usleep(500)   // the watcher's cadence (`slate serve` looks every 50 ms), not a wait for a result
            }
            _ = try? server.publishExternalChanges()
        }
        watcher.start()
        for (index, container) in [server, cli].enumerated() {
            Thread {
                let context = ModelContext(container, undo: false)
                for number in 0..<perWriter {
                    // Both writers write to both partitions, alternating.
                    context.insert(Memo(ownerID: number % 2 == 0 ? ana : ben, text: "\(index).\(number)"))
                    _ = try? context.save()
                }
                done.add(1, ordering: .releasing)
            }.start()
        }
        let seen = await collected.value
        var reported: [UUID: Int] = [:]
        for commit in seen {
            let memos = commit.changes(of: Memo.self)
            for id in memos.inserted.union(memos.updated) { reported[id, default: 0] += 1 }
        }
        #expect(reported.count == 2 * perWriter && reported.values.allSatisfy { $0 == 1 })
        #expect(Set(seen.map(\.revision)).count == seen.count, "no two commits share a store sequence")
        for partition in [ana, ben] {
            let revisions = seen.compactMap { $0.revision(in: partition) }
            #expect(Set(revisions).count == revisions.count, "each announcement carries a revision of its own")
            #expect(revisions.max() == (try server.currentRevision(partition: partition)))
            // What was announced is exactly what the partition's feed holds.
            let feed = try ModelContext(server).changes(of: Memo.self, since: 0, partition: partition)
            #expect(feed.upserted.count == perWriter)
        }
    }
}

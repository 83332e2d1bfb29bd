import Foundation
import TestDatabases
import Testing

@testable import SlateStore

/// Nodes on one PostgreSQL database learn each other's commits from the commits' own
/// announcements (`CommitAnnouncement`), without reading the commit log, and what they
/// learn is exactly what the log says; a commit too large to announce is read from the log.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct PostgreSQLAnnouncementTests {
    let ana = UUID(), ben = UUID()

    /// `node`'s next report of other processes' commits, waiting for their announcement
    /// (at most 10 s).
    func nextAnnounced(by node: ModelContainer) throws -> Commit? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if node.waitForExternalCommits(timeout: 0.5), let commit = try node.publishAnnouncedChanges()
            {
                return commit
            }
        }
        return nil
    }

    /// Three containers on one schema: a node that listens, another process that writes,
    /// and an observer that reads the log for the same window.
    func nodes() throws -> (node: ModelContainer, writer: ModelContainer, observer: ModelContainer) {
        let configuration = TestDatabase.shared(path: "announcements-\(UUID().uuidString)")
        let node = try ModelContainer(for: [Memo.self], configuration: configuration)
        let writer = try ModelContainer(for: [Memo.self], configuration: configuration)
        let observer = try ModelContainer(for: [Memo.self], configuration: configuration)
        // The first look after connecting reads the log: nothing heard before counts.
        #expect(node.waitForExternalCommits(timeout: 5))
        #expect(try node.publishAnnouncedChanges() == nil)
        return (node, writer, observer)
    }

    @Test func anotherNodesCommitsArriveAsTheLogSaysThemWithoutReadingIt() throws {
        let (node, writer, observer) = try nodes()
        let reads = node.externalLogReads.load(ordering: .relaxed)
        let context = ModelContext(writer)
        var anas = Memo(ownerID: ana, text: "Ana's")
        let bens = Memo(ownerID: ben, text: "Ben's")
        context.insert(anas)
        context.insert(bens)
        try context.save()
        let first = try #require(try nextAnnounced(by: node))
        #expect(first == (try observer.publishExternalChanges()))
        #expect(first.changes(of: Memo.self) == TableChanges(updated: [anas.id, bens.id]))
        #expect(first.revision(in: ana) == 1 && first.revision(in: ben) == 1)

        anas.text = "Ana's, edited"
        context.update(anas)
        context.delete(bens)
        try context.save()
        let second = try #require(try nextAnnounced(by: node))
        #expect(second == (try observer.publishExternalChanges()))
        #expect(second.changes(of: Memo.self) == TableChanges(updated: [anas.id], deleted: [bens.id]))

        try context.undo()
        let third = try #require(try nextAnnounced(by: node))
        #expect(third == (try observer.publishExternalChanges()), "an undo is announced as a save is")
        #expect(third.changes(of: Memo.self) == TableChanges(updated: [anas.id, bens.id]))
        #expect(third.origin == .external && third.revision(in: ben) == 3)

        // The node's own commit is not news, and needs no read either.
        let own = ModelContext(node)
        own.insert(Memo(ownerID: ana, text: "The node's"))
        try own.save()
        #expect(node.waitForExternalCommits(timeout: 5))
        #expect(try node.publishAnnouncedChanges() == nil)
        #expect(
            node.externalLogReads.load(ordering: .relaxed) == reads, "every commit was heard in full")

        // And the node's stamps hold: nothing of the others' is unreported.
        #expect(try node.changeStamp(of: [Memo.self]) != nil)
        // The server's queue of announcements is read for the metrics, and is far from full.
        #expect(node.announcementQueueUsage().map { $0 >= 0 && $0 < 0.5 } == true)
    }

    @Test func aCommitTooLargeToAnnounceIsReadFromTheLog() throws {
        let (node, writer, _) = try nodes()
        let reads = node.externalLogReads.load(ordering: .relaxed)
        let context = ModelContext(writer)
        let memos = (0..<300).map { Memo(ownerID: ana, text: "Memo \($0)") }
        memos.forEach(context.insert)
        try context.save()
        let commit = try #require(try nextAnnounced(by: node))
        #expect(commit.changes(of: Memo.self).updated == Set(memos.map(\.id)))
        #expect(node.externalLogReads.load(ordering: .relaxed) == reads + 1)
    }

    /// Another node's edit of a row this node then wrote again: the log names the row under
    /// this node's commit, so it is not reported as theirs (it would undo what this node's own
    /// report said).
    @Test func aRowThisNodeWroteAfterAnotherIsNotReportedAsTheirs() throws {
        let (node, writer, _) = try nodes()
        let mine = ModelContext(node)
        var memo = Memo(ownerID: ana, text: "First")
        mine.insert(memo)
        try mine.save()
        #expect(node.waitForExternalCommits(timeout: 5))
        _ = try node.publishAnnouncedChanges()
        let reads = node.externalLogReads.load(ordering: .relaxed)

        let theirs = ModelContext(writer)
        var edited = try #require(try theirs.model(Memo.self, id: memo.id))
        edited.text = "Theirs"
        theirs.update(edited)
        let other = Memo(ownerID: ben, text: "Only theirs")
        theirs.insert(other)
        try theirs.save()
        memo.text = "Mine again"
        mine.update(memo)
        try mine.save()

        var reported: [Commit] = []
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !reported.contains(where: { !$0.changes(of: Memo.self).updated.isEmpty }) {
            if node.waitForExternalCommits(timeout: 0.5), let commit = try node.publishAnnouncedChanges() { reported.append(commit) }
        }
        #expect(reported.map { $0.changes(of: Memo.self) } == [TableChanges(updated: [other.id])])
        #expect(node.externalLogReads.load(ordering: .relaxed) == reads)
    }
}


import Foundation
import Testing

@testable import SlateStore

/// What a commit tells other processes on PostgreSQL (`CommitAnnouncement`): its text read
/// back is the commit, text that is not one is refused, and heard announcements summed up
/// say what the commit log would.
@Suite struct CommitAnnouncementTests {
    let a = UUID(), b = UUID(), c = UUID()

    @Test func aCommitReadBackFromItsTextIsTheSameCommit() throws {
        let commit = Commit(
            revision: 42, origin: .save,
            tables: [
                "memos": TableChanges(inserted: [a], updated: [b], deleted: [c]),
                "items": TableChanges(updated: [a]),
            ],
            partitions: ["ana", "ben"], revisions: ["ana": 7, "ben": 3])
        let payload = try #require(CommitAnnouncement.payload(for: commit))
        let heard = try #require(CommitAnnouncement(payload: payload))
        #expect(heard.sequence == 42)
        let changes = try #require(heard.changes)
        #expect(changes.revision == 42 && changes.origin == .external)
        #expect(changes.tables == commit.tables)
        #expect(changes.partitions == commit.partitions && changes.revisions == commit.revisions)
    }

    @Test func aBareSequenceSaysOnlyTheSequence() throws {
        let heard = try #require(CommitAnnouncement(payload: "17"))
        #expect(heard.sequence == 17 && heard.changes == nil)
    }

    @Test(arguments: [
        "", "x", "0", "-3", "5\nZmemos", "5\nU\(UUID().uuidString)", "5\nTmemos\nUnot-an-id", "5\nT",
        "5\nPana", "5\nPana\tseven", "5\n",
    ])
    func textThatIsNotAnAnnouncementIsRefused(_ payload: String) {
        #expect(CommitAnnouncement(payload: payload) == nil)
    }

    @Test func aCommitTooLargeOrWithNamesThatCannotBeSaidIsNotDetailed() {
        let many = Set((0..<300).map { _ in UUID() })
        #expect(
            CommitAnnouncement.payload(
                for: Commit(revision: 1, origin: .save, tables: ["memos": TableChanges(inserted: many)]))
                == nil)
        let fewer = Set(many.prefix(150))
        let fits = CommitAnnouncement.payload(
            for: Commit(revision: 1, origin: .save, tables: ["memos": TableChanges(inserted: fewer)]))
        #expect(fits.map { $0.utf8.count <= CommitAnnouncement.payloadLimit } == true)
        #expect(
            CommitAnnouncement.payload(
                for: Commit(revision: 1, origin: .save, tables: ["me\nmos": TableChanges(updated: [a])]))
                == nil)
        #expect(
            CommitAnnouncement.payload(
                for: Commit(
                    revision: 1, origin: .save, tables: ["memos": TableChanges(updated: [a])],
                    partitions: ["a\tb"])) == nil)
    }

    func announced(
        _ sequence: Int, _ tables: [String: TableChanges], _ revisions: [String: Int] = [:]
    ) -> CommitAnnouncement {
        let commit = Commit(
            revision: sequence, origin: .save, tables: tables, partitions: Set(revisions.keys),
            revisions: revisions)
        return CommitAnnouncement(payload: CommitAnnouncement.payload(for: commit)!)!
    }

    @Test func heardCommitsSumUpAsTheLogWouldSayThem() throws {
        // 5 creates a and b, 6 is this process's own, 7 edits a and removes b, 8 removes a and creates c.
        let heard = [
            5: announced(5, ["memos": TableChanges(inserted: [a, b])], ["ana": 1]),
            7: announced(7, ["memos": TableChanges(updated: [a], deleted: [b])], ["ana": 2, "ben": 4]),
            8: announced(
                8,
                [
                    "memos": TableChanges(inserted: [c], deleted: [a]),
                    "elsewhere": TableChanges(updated: [b]),
                ], ["ana": 3]),
        ]
        let summary = try #require(
            CommitAnnouncement.summary(of: heard, since: 4, through: 8, excluding: [6], ownTouched: [:], known: ["memos"]))
        #expect(summary.revision == 8 && summary.origin == .external)
        #expect(
            summary.tables == ["memos": TableChanges(updated: [c], deleted: [a, b])],
            "a table this store does not have is left out")
        #expect(summary.partitions == ["ana", "ben"] && summary.revisions == ["ana": 3, "ben": 4])

        // A row removed and then made again exists: updated, not deleted.
        let again = [
            9: announced(9, ["memos": TableChanges(deleted: [a])]),
            10: announced(10, ["memos": TableChanges(inserted: [a])]),
        ]
        let back = try #require(
            CommitAnnouncement.summary(of: again, since: 8, through: 10, excluding: [], ownTouched: [:], known: ["memos"]))
        #expect(back.tables == ["memos": TableChanges(updated: [a])])
    }

    @Test func aSequenceNotHeardWithItsChangesSendsTheReaderToTheLog() {
        let heard = [
            5: announced(5, ["memos": TableChanges(updated: [a])]),
            7: announced(7, ["memos": TableChanges(updated: [b])]),
        ]
        #expect(
            CommitAnnouncement.summary(of: heard, since: 4, through: 7, excluding: [], ownTouched: [:], known: ["memos"])
                == nil, "6 missing")
        #expect(
            CommitAnnouncement.summary(of: heard, since: 4, through: 7, excluding: [6], ownTouched: [:], known: ["memos"])
                != nil, "6 is our own")
        let bare = heard.merging([6: CommitAnnouncement(payload: "6")!]) { $1 }
        #expect(
            CommitAnnouncement.summary(of: bare, since: 4, through: 7, excluding: [], ownTouched: [:], known: ["memos"])
                == nil, "6 said nothing")
    }

    @Test func theSummaryNamesTheLastSequenceThatIsNotOurOwn() throws {
        let heard = [5: announced(5, ["memos": TableChanges(updated: [a])])]
        let summary = try #require(
            CommitAnnouncement.summary(
                of: heard, since: 4, through: 7, excluding: [6, 7], ownTouched: [:], known: ["memos"]))
        #expect(summary.revision == 5 && summary.tables == ["memos": TableChanges(updated: [a])])
    }

    @Test func aRowRemovedAndMadeAgainInOneCommitExists() throws {
        let heard = [5: announced(5, ["memos": TableChanges(inserted: [a], deleted: [a, b])])]
        let summary = try #require(
            CommitAnnouncement.summary(of: heard, since: 4, through: 5, excluding: [], ownTouched: [:], known: ["memos"]))
        #expect(summary.tables == ["memos": TableChanges(updated: [a], deleted: [b])])
    }

    @Test func aRowThisProcessWroteSinceIsNotReportedAsTheirs() throws {
        // 5 (theirs) edits a and removes b; 6 (ours, heard) makes b again; c was ours, reported
        // before its announcement came: the log would name each of them under us.
        let heard = [
            5: announced(5, ["memos": TableChanges(updated: [a, c], deleted: [b])]),
            6: announced(6, ["memos": TableChanges(inserted: [b])]),
        ]
        let summary = try #require(
            CommitAnnouncement.summary(
                of: heard, since: 4, through: 6, excluding: [6, 7], ownTouched: ["memos": [c]], known: ["memos"]))
        #expect(summary.revision == 5 && summary.tables == ["memos": TableChanges(updated: [a])])
        // Ours said bare: what it wrote is unknown, so the log is read.
        let bare = heard.merging([6: CommitAnnouncement(payload: "6")!]) { $1 }
        #expect(
            CommitAnnouncement.summary(of: bare, since: 4, through: 6, excluding: [6], ownTouched: [:], known: ["memos"])
                == nil)
    }

    @Test func aSequenceFarBeyondTheWindowEndsTheLookAtTheFirstGap() {
        let heard = [Int.max: CommitAnnouncement(payload: String(Int.max))!]
        #expect(
            CommitAnnouncement.summary(of: heard, since: 4, through: Int.max, excluding: [], ownTouched: [:], known: ["memos"])
                == nil)
    }
}

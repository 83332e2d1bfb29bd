import Foundation
import Synchronization
import Testing

@testable import SlateStore

/// `ModelContainer.writeTogether`: many writers, one transaction, one COMMIT — and each
/// writer still on its own: its revision check, its failure, its commit notification.
@Suite struct GroupCommitTests {
    private func stored(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    }

    @Test func writersOfOneGroupCommitTogetherAndAreAnnouncedInOrderAfterwards() async throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: folder.path("group.sqlite")))
        let commits = container.commits()
        let outcomes = container.writeTogether((0..<5).map { index in {
            let context = ModelContext(container)
            context.insert(Item(title: "Item \(index)"))
            try context.save()
        } })
        #expect(outcomes.allSatisfy { $0 == nil })
        #expect(try stored(container) == (0..<5).map { "Item \($0)" })
        var revisions: [Int] = []
        for await commit in commits {
            revisions.append(commit.revision)
            if revisions.count == 5 { break }
        }
        #expect(revisions == [1, 2, 3, 4, 5], "one commit per writer, in the order they ran")
        #expect(try container.currentRevision() == 5)
    }

    @Test func aWriterThatFailsIsRolledBackAloneAndItsCommitNeverAnnounced() throws {
        let container = try makeContainer()
        let seen = Mutex<[Int]>([])
        let commits = container.commits()
        let listener = Task { for await commit in commits { seen.withLock { $0.append(commit.revision) } } }
        defer { listener.cancel() }
        struct Refused: Error {}
        let outcomes = container.writeTogether([
            {
                let context = ModelContext(container)
                context.insert(Item(title: "First"))
                try context.save()
            },
            {
                // Saves, then fails: its save must go with it.
                let context = ModelContext(container)
                context.insert(Item(title: "Second"))
                try context.save()
                throw Refused()
            },
            {
                let context = ModelContext(container)
                context.insert(Item(title: "Third"))
                try context.save()
            },
        ])
        #expect(outcomes[0] == nil && outcomes[2] == nil)
        #expect(outcomes[1] is Refused)
        #expect(try stored(container) == ["First", "Third"])
        // The failed writer's revision was handed out again to the next one: no gap, no reuse.
        #expect(try container.currentRevision() == 2)
        let context = ModelContext(container)
        context.insert(Item(title: "Fourth"))
        try context.save()
        #expect(try container.currentRevision() == 3)
    }

    @Test func eachWriterIsCheckedAgainstTheRevisionItExpectsAndSeesTheWritesBeforeIt() throws {
        let container = try makeContainer()
        let item = Item(title: "Draft")
        let setup = ModelContext(container)
        setup.insert(item)
        try setup.save()
        let read = try #require(try ModelContext(container).revisioned(Item.self, id: item.id))
        // Two editors read the same revision; the first to write wins, the second is refused.
        let edit = { (title: String) -> () throws -> Void in {
            let context = ModelContext(container)
            var changed = read.model
            changed.title = title
            context.update(changed, expectedRevision: read.revision)
            try context.save()
        } }
        // A third writer that reads inside the group sees the first one's change.
        let observed = Mutex<String?>(nil)
        let outcomes = container.writeTogether([edit("One"), edit("Two"), {
            observed.withLock { $0 = try? ModelContext(container).model(Item.self, id: item.id)?.title }
        }])
        #expect(outcomes[0] == nil)
        guard case StoreError.conflict? = outcomes[1] else {
            Issue.record("the second editor should be refused, got \(String(describing: outcomes[1]))")
            return
        }
        #expect(outcomes[2] == nil)
        #expect(observed.withLock { $0 } == "One")
        #expect(try ModelContext(container).model(Item.self, id: item.id)?.title == "One")
    }

    @Test func aDanglingReferenceFailsItsWriterAloneNotTheCommit() throws {
        let container = try makeContainer()
        let outcomes = container.writeTogether([
            {
                let context = ModelContext(container)
                context.insert(Item(title: "Fine"))
                try context.save()
            },
            {
                // A project that does not exist: deferred, so only the COMMIT would notice.
                let context = ModelContext(container)
                context.insert(Item(title: "Orphan", projectID: UUID()))
                try context.save()
            },
        ])
        #expect(outcomes[0] == nil)
        guard case StoreError.constraintViolation? = outcomes[1] else {
            Issue.record("the dangling reference should fail its writer, got \(String(describing: outcomes[1]))")
            return
        }
        #expect(try stored(container) == ["Fine"])
    }

    @Test func aStoreAnotherProcessHoldsFailsEveryWriterOfTheGroupAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("locked.sqlite")
        let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path, busyTimeout: 0.05))
        let other = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path, busyTimeout: 0.05))
        let outcomes = try other.pool.write { database in
            // BEGIN IMMEDIATE: the other connection holds the write lock until this returns.
            try database.transaction {
                container.writeTogether((0..<3).map { index in {
                    let context = ModelContext(container)
                    context.insert(Item(title: "Item \(index)"))
                    try context.save()
                } })
            }
        }
        #expect(outcomes.allSatisfy { if case StoreError.busy? = $0 { true } else { false } })
        #expect(try stored(container).isEmpty)
    }
}

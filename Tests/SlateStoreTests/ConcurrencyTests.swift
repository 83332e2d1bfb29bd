import Foundation
@testable import SlateStore
import Synchronization
import TestDatabases
import Testing

// Readers on other threads keep working while a write transaction is open, and see the
// last committed state; writers are serialised without losing a commit. Threads meet
// through semaphores with generous timeouts, so a regression fails instead of hanging.

/// Generous bound on every wait: builds may be running on the same two cores.
private let patience: DispatchTimeInterval = .seconds(90)

/// Runs `body` on a new thread; the returned semaphore is signalled when it returns.
private func onNewThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        finished.signal()
    }
    return finished
}

/// Holds the container's write transaction open, with one uncommitted change to every
/// item, until `release` is signalled or the patience runs out.
private final class OpenWrite: Sendable {
    let started = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let failure = Mutex<String?>(nil)
    private let ended = Mutex<Bool?>(nil)

    init(on container: ModelContainer) {
        Thread.detachNewThread { [self] in
            hold(container)
            finished.signal()
        }
    }

    private func hold(_ container: ModelContainer) {
        do {
            try container.pool.write { database in
                try database.transaction {
                    _ = try ChangeLog.nextRevision(database)
                    try database.execute("UPDATE items SET title = 'uncommitted', \"_rev\" = 2")
                    started.signal()
                    if release.wait(timeout: .now() + patience) == .timedOut {
                        throw CancellationError()
                    }
                }
            }
        } catch {
            failure.withLock { $0 = "\(error)" }
            started.signal()
        }
    }

    var error: String? { failure.withLock { $0 } }

    /// Lets the held transaction commit; false if the writer thread did not finish.
    /// Safe to call again (from a `defer`): later calls return the first answer.
    func commit() -> Bool {
        ended.withLock { ended in
            if let ended { return ended }
            release.signal()
            let result = finished.wait(timeout: .now() + patience) == .success
            ended = result
            return result
        }
    }
}

@Suite struct ConcurrencyTests {
    private func makeFileStore(_ folder: borrowing TemporaryDirectory, items: Int) throws -> ModelContainer {
        let container = try ModelContainer(for: allModels, configuration: TestDatabase.shared(path: folder.path("store.sqlite")))
        let context = ModelContext(container)
        for number in 0..<items { context.insert(Item(title: "committed", rank: number)) }
        try context.save()
        return container
    }

    @Test func readersOnOtherThreadsSeeTheLastCommitWhileAWriteIsOpen() throws {
        let folder = try TemporaryDirectory()
        let container = try makeFileStore(folder, items: 10)
        // A second container on the same file reads as another process would.
        let other = try ModelContainer(for: allModels, configuration: TestDatabase.shared(path: folder.path("store.sqlite")))

        let write = OpenWrite(on: container)
        defer { _ = write.commit() }
        try #require(write.started.wait(timeout: .now() + patience) == .success)
        try #require(write.error == nil, "\(write.error ?? "")")

        struct Seen: Sendable, Equatable {
            var titles: Set<String>
            var count: Int
            var revision: Int
        }
        let seen = Mutex<[Seen]>([])
        let readers = (0..<6).map { index in
            onNewThread {
                let source = index.isMultiple(of: 2) ? container : other
                let context = ModelContext(source)
                do {
                    let items = try context.fetch(FetchDescriptor<Item>())
                    let revision = try source.currentRevision()
                    seen.withLock { $0.append(Seen(titles: Set(items.map(\.title)), count: items.count, revision: revision)) }
                } catch {
                    Issue.record(error, "reader \(index)")
                }
            }
        }
        // The writer holds its transaction until after this wait: readers that queued
        // behind it would time out here and fail the test.
        for reader in readers {
            #expect(reader.wait(timeout: .now() + patience) == .success, "a reader waited for the open write")
        }
        let expected = Seen(titles: ["committed"], count: 10, revision: 1)
        #expect(seen.withLock { $0 } == Array(repeating: expected, count: 6))

        #expect(write.commit())
        #expect(write.error == nil)
        #expect(try ModelContext(other).fetch(FetchDescriptor<Item>()).allSatisfy { $0.title == "uncommitted" })
        #expect(try container.currentRevision() == 2)
        #expect(try other.publishExternalChanges()?.revision == 2)
    }

    @Test func saveFromAnotherThreadWaitsForTheOpenWriteThenCommitsAfterIt() throws {
        let folder = try TemporaryDirectory()
        let container = try makeFileStore(folder, items: 3)
        let write = OpenWrite(on: container)
        defer { _ = write.commit() }
        try #require(write.started.wait(timeout: .now() + patience) == .success)
        try #require(write.error == nil, "\(write.error ?? "")")

        let queued = Item(title: "queued")
        let revision = Mutex<Int?>(nil)
        let saver = onNewThread {
            let context = ModelContext(container)
            context.insert(queued)
            do {
                let commit = try context.save()
                revision.withLock { $0 = commit?.revision }
            } catch {
                Issue.record(error, "the queued save failed")
            }
        }
        #expect(write.commit())
        #expect(saver.wait(timeout: .now() + patience) == .success)
        // Ordered after the open transaction (revision 2), not failed and not lost.
        #expect(revision.withLock { $0 } == 3)
        let titles = try ModelContext(container).fetch(FetchDescriptor<Item>()).map(\.title)
        #expect(titles.sorted() == ["queued", "uncommitted", "uncommitted", "uncommitted"])
    }

    @Test func concurrentWritersAndReadersSeeOnlyWholeCommits() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(for: allModels, configuration: TestDatabase.shared(path: folder.path("store.sqlite")))
        let writers = 3
        let savesPerWriter = 15
        let rowsPerSave = 8
        let revisions = Mutex<[Int]>([])
        let writersDone = Atomic<Int>(0)
        let snapshots = Atomic<Int>(0)

        let writerThreads = (0..<writers).map { writer in
            onNewThread {
                let context = ModelContext(container)
                for save in 0..<savesPerWriter {
                    for row in 0..<rowsPerSave {
                        context.insert(Item(title: "w\(writer)-s\(save)", rank: row))
                    }
                    do {
                        let commit = try context.save()
                        revisions.withLock { $0.append(commit?.revision ?? -1) }
                    } catch {
                        Issue.record(error, "writer \(writer) save \(save)")
                        return
                    }
                }
                writersDone.add(1, ordering: .sequentiallyConsistent)
            }
        }
        let readerThreads = (0..<2).map { reader in
            onNewThread {
                let context = ModelContext(container)
                // Bounded even if a writer dies: at most a few thousand snapshots.
                for _ in 0..<5_000 {
                    let finished = writersDone.load(ordering: .sequentiallyConsistent) == writers
                    do {
                        let rows = try context.fetchRevisioned(FetchDescriptor<Item>())
                        for (title, group) in Dictionary(grouping: rows, by: \.model.title) {
                            if group.count != rowsPerSave || Set(group.map(\.revision)).count != 1 {
                                Issue.record("reader \(reader) saw \(group.count) rows of \(title)")
                            }
                        }
                    } catch {
                        Issue.record(error, "reader \(reader)")
                        return
                    }
                    snapshots.add(1, ordering: .relaxed)
                    if finished { return }
                }
            }
        }
        for thread in writerThreads + readerThreads {
            #expect(thread.wait(timeout: .now() + patience) == .success)
        }

        let total = writers * savesPerWriter
        #expect(revisions.withLock { $0.sorted() } == Array(1...total), "every save got its own revision")
        #expect(try container.currentRevision() == total)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Item>()) == total * rowsPerSave)
        #expect(snapshots.load(ordering: .relaxed) >= 2)
    }
}

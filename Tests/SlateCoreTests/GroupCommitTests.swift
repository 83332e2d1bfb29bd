import Foundation
import Synchronization
import TestDatabases
import Testing

@testable import SlateCore

/// Group commit through `Slate.write`: changes that arrive while one is being written wait
/// for it and then commit together, each still checked against its own revision.
@Suite struct BoardGroupCommitTests {
    /// Waits (on the writer thread, never the cooperative pool) until `condition` holds.
    private static func wait(until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while !condition() {
            guard Date() < deadline else { throw SlateError.store("the test's condition never held") }
            usleep(1000)
        }
    }

    /// Runs `blocked` as a first change that waits until `changes` are all queued behind
    /// it, so that they make up exactly the next group; returns their results.
    /// The line that wrote a `queuedBehindOne`'s changes, and its statistics before them.
    final class LineSeen: Sendable {
        let seen = Mutex<(line: WriteLine, before: (groups: Int, changes: Int))?>(nil)
    }

    private func queuedBehindOne<T: Sendable>(_ slate: Slate, _ count: Int, line found: LineSeen? = nil,
                                              _ change: @escaping @Sendable (Slate, Int) throws -> T) async throws
        -> [Result<T, any Error>] {
        let started = Atomic(false)
        let first = Task {
            try await slate.write { _ in
                // The line writing this change (looked up now: a process with many stores
                // forgets idle lines, and before this change the store's was idle).
                let line = BoardThreads.shared.writeLineForTests(slate.container)
                found?.seen.withLock { $0 = (line, line.statistics) }
                started.store(true, ordering: .releasing)
                try Self.wait { line.queuedCount == count }
            }
        }
        while !started.load(ordering: .acquiring) { await Task.yield() }
        let results = await withTaskGroup(of: (Int, Result<T, any Error>).self) { group in
            for index in 0..<count {
                group.addTask {
                    do { return (index, .success(try await slate.write { try change($0, index) })) } catch { return (index, .failure(error)) }
                }
            }
            var results: [(Int, Result<T, any Error>)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
        try await first.value
        return results
    }

    // Seventy-one stores: on PostgreSQL that many schemas and connections, for what the backend does not change.
    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "seventy-one stores"))
    func aLineWritingIsKeptWhenAProcessWithManyStoresForgetsIdleOnes() async throws {
        let (slate, _) = try makeSlate()
        let others = try (0..<70).map { _ in try makeSlate().0 }
        let release = Atomic(false)
        let found = LineSeen()
        let writing = Task {
            try await slate.write { _ in
                let line = BoardThreads.shared.writeLineForTests(slate.container)
                found.seen.withLock { $0 = (line, line.statistics) }
                try Self.wait { release.load(ordering: .acquiring) }
            }
        }
        try await Task.detached { try Self.wait { found.seen.withLock { $0 != nil } } }.value
        // Seventy other stores' lines: past the 64 at which idle lines are forgotten.
        let idle = others.map { BoardThreads.shared.writeLineForTests($0.container) }
        let writingLine = try #require(found.seen.withLock { $0?.line })
        #expect(BoardThreads.shared.writeLineForTests(slate.container) === writingLine, "the line writing is still the store's")
        #expect(BoardThreads.shared.writeLineForTests(others[0].container) !== idle[0], "an idle one was forgotten")
        release.store(true, ordering: .releasing)
        try await writing.value
    }

    @Test func changesThatArriveWhileOneIsWrittenCommitTogetherAsTheNextGroup() async throws {
        let (slate, _) = try makeSlate()
        // The statistics of the line that wrote them (read while the blocking change runs,
        // before its group is counted).
        let found = LineSeen()
        let results = try await queuedBehindOne(slate, 20, line: found) { slate, index in try slate.addTask(TaskDraft(title: "Task \(index)")).id }
        let (line, before) = try #require(found.seen.withLock { $0 })
        let after = line.statistics
        #expect(after.groups - before.groups == 2, "the blocking change, then one group of the twenty")
        #expect(after.changes - before.changes == 21)
        let ids = try results.map { try $0.get() }
        let stored = try slate.tasks().map(\.id)
        #expect(Set(stored) == Set(ids))
        // Each change is its own revision: undo by change still reverts exactly one.
        let revisions = try ids.map { try slate.task(id: $0).revision }
        #expect(Set(revisions).count == 20)
    }

    @Test func inOneGroupEachIfMatchIsHonouredAndOneRefusalFailsNoOther() async throws {
        let (slate, _) = try makeSlate()
        let task = try slate.addRevisionedTask(TaskDraft(title: "Shared"))
        let other = try slate.addTask(TaskDraft(title: "Other"))
        // Ten editors with the same If-Match on one task, five flag toggles on another.
        let results = try await queuedBehindOne(slate, 15) { slate, index -> Int in
            if index < 10 {
                var patch = TaskPatch()
                patch.title = "Edit \(index)"
                return try slate.updateRevisionedTask(task.model.id, patch, expectedRevision: task.revision).revision
            }
            var patch = TaskPatch()
            patch.isFlagged = index % 2 == 0
            return try slate.updateRevisionedTask(other.id, patch).revision
        }
        let edits = results.prefix(10)
        let won = edits.filter { if case .success = $0 { true } else { false } }
        #expect(won.count == 1, "exactly one editor with that revision may write")
        for result in edits {
            if case .failure(let error) = result {
                guard case SlateError.conflict? = error as? SlateError else {
                    Issue.record("a refused editor gets a conflict, not \(error)")
                    continue
                }
            }
        }
        #expect(results.suffix(5).allSatisfy { if case .success = $0 { true } else { false } },
                "a change without If-Match re-reads inside the group and never conflicts")
        #expect(try slate.task(id: task.model.id).model.title.hasPrefix("Edit "))
        #expect(try slate.task(id: other.id).model.isFlagged == true, "the last toggle (index 14) wins")
    }

    @Test func aChangeThatThrowsAfterSavingLeavesNothingAndNoEvent() async throws {
        let (slate, _) = try makeSlate()
        let changes = slate.container.boardChanges()
        let results = try await queuedBehindOne(slate, 3) { slate, index -> UUID in
            let task = try slate.addTask(TaskDraft(title: "Task \(index)"))
            if index == 1 { throw SlateError.invalid(field: "test", message: "refused after saving") }
            return task.id
        }
        #expect(try slate.tasks().map(\.title).sorted() == ["Task 0", "Task 2"])
        guard case .failure = results[1] else { Issue.record("the second change should fail"); return }
        var titles: [UUID] = []
        for await change in changes {
            titles += change.tasks?.inserted ?? []
            if titles.count == 2 { break }
        }
        #expect(Set(titles) == Set([try results[0].get(), try results[2].get()]))
    }
}

import Foundation
import Synchronization
import TestDatabases
import Testing

@testable import SlateStore

/// The change feed never drops silently, and every commit, from any process, is reported
/// once under an identity of its own.
@Suite struct ChangeFeedTests {
    @Test func aSubscriberThatFallsBehindIsToldToResyncThenFollowsAgain() async throws {
        let container = try ModelContainer(for: allModels, configuration: TestDatabase.configuration())
        let commits = container.commits()
        let total = CommitNotifier.feedLimit + 76
        // A thousand saves: on a thread of its own, not on the cooperative pool other suites share.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            Thread {
                continuation.resume(with: Result {
                    let context = ModelContext(container, undo: false)
                    for index in 0..<total {
                        context.insert(Item(title: "Item \(index)"))
                        try context.save()
                    }
                })
            }.start()
        }
        var received: [Commit] = []
        for await commit in commits {
            received.append(commit)
            if commit.revision == total { break }
        }
        let first = try #require(received.first)
        #expect(first.origin == .resync, "the backlog became one resync notice")
        #expect(first.revision == CommitNotifier.feedLimit + 1, "as of the first commit that did not fit")
        let after = received.dropFirst().map(\.revision)
        #expect(after == Array((CommitNotifier.feedLimit + 2)...total), "then every later commit, in order")
    }

    @Test func aSubscriberThatKeepsUpGetsEveryCommitAndNoResync() async throws {
        let container = try ModelContainer(for: allModels, configuration: TestDatabase.configuration())
        let commits = container.commits()
        let reader = Task {
            var revisions: [Int] = []
            for await commit in commits {
                revisions.append(commit.revision)
                #expect(commit.origin == .save)
                if commit.revision == 300 { break }
            }
            return revisions
        }
        let context = ModelContext(container, undo: false)
        for index in 0..<300 {
            context.insert(Item(title: "Item \(index)"))
            try context.save()
        }
        #expect(await reader.value == Array(1...300))
    }

    @Test func everyCommitFromEitherProcessIsReportedOnceUnderItsOwnIdentity() async throws {
        let folder = try TemporaryDirectory()
        let configuration = TestDatabase.shared(path: folder.path("shared.sqlite"), busyTimeout: 30)
        for round in 0..<5 {
            let server = try ModelContainer(for: allModels, configuration: configuration)
            let cli = try ModelContainer(for: allModels, configuration: configuration)
            let commits = server.commits()
            let perWriter = 60
            let collected = Task {
                var seen: [Commit] = []
                var serverIDs = 0, cliIDs = 0
                for await commit in commits {
                    seen.append(commit)
                    let ids = commit.changes(of: Item.self)
                    if commit.origin == .external { cliIDs += ids.updated.count } else { serverIDs += ids.inserted.count }
                    if serverIDs >= perWriter && cliIDs >= perWriter { break }
                }
                return seen
            }
            let done = Atomic<Int>(0)
            // The watcher looks for the other process's commits all the while.
            let watcher = Thread {
                while done.load(ordering: .acquiring) < 2 {
                    _ = try? server.publishExternalChanges()
                    usleep(500)   // the watcher's cadence (`slate serve` looks every 50 ms), not a wait for a result
                }
                _ = try? server.publishExternalChanges()
            }
            watcher.start()
            let writers = [server, cli].enumerated().map { index, container in
                let thread = Thread {
                    let context = ModelContext(container, undo: false)
                    for number in 0..<perWriter {
                        context.insert(Item(title: "\(index == 0 ? "API" : "CLI") \(round).\(number)"))
                        _ = try? context.save()
                    }
                    done.add(1, ordering: .releasing)
                }
                thread.start()
                return thread
            }
            _ = writers
            let seen = await collected.value
            var titlesByID: [UUID: Int] = [:]
            for commit in seen {
                let ids = commit.changes(of: Item.self)
                for id in ids.inserted.union(ids.updated) { titlesByID[id, default: 0] += 1 }
            }
            #expect(titlesByID.count == 2 * perWriter, "round \(round): every item reported")
            #expect(titlesByID.values.allSatisfy { $0 == 1 }, "round \(round): and each once")
            let identities = seen.map { "\($0.revision)-\($0.origin)" }
            #expect(Set(identities).count == identities.count)
            #expect(Set(seen.map(\.revision)).count == seen.count, "round \(round): no two commits share a revision")
        }
    }
}

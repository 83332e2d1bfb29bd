import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import Synchronization
import Testing

/// A client that follows `GET /changes?since=` while the API and another process write
/// ends with exactly the server's state: no revision it is given skips a change.
@Suite(.serialized) struct SyncClientTests {
    struct Mirror {
        var tasks: [String: String] = [:]   // id → title
        var since = 0

        mutating func apply(_ changes: [String: Any]) {
            for task in changes["tasks"] as? [[String: Any]] ?? [] {
                if let id = task["id"] as? String { tasks[id] = task["title"] as? String }
            }
            for id in changes["deletedTaskIds"] as? [String] ?? [] { tasks.removeValue(forKey: id) }
            since = changes["revision"] as? Int ?? since
        }
    }

    @Test(arguments: 0..<6) func followingChangesEndsAtTheServersState(round: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("slate.sqlite").path
        let store = try Slate.openContainer(path: path)
        let account = try Slate.ensureAccount(named: "ana", in: store, now: Date())
        let api = SlateAPI(container: store, authenticate: { _ in account.id })
        func send(_ method: HTTPMethod, _ target: String, _ json: [String: Any]? = nil) async throws -> [String: Any] {
            let body = try json.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
            let response = try await api.router.respond(to: Request(method: method, target: target,
                                                                    headers: ["Content-Type": "application/json"], body: body))
            return (try? JSONSerialization.jsonObject(with: response.bodyData ?? Data()) as? [String: Any]) ?? [:]
        }

        // The other process: its own store on the same file, writing from a thread of its own.
        let other = try Slate.open(path: path)
        let otherAccount = try #require(try AccountDirectory(container: other.container).account(named: "ana"))
        let cli = Slate(container: other.container, accountID: otherAccount.id)
        let finished = Atomic<Bool>(false)
        let cliWriter = Thread {
            var mine: [UUID] = []
            for number in 0..<40 {
                if let task = try? cli.addTask(TaskDraft(title: "CLI \(round).\(number)")) { mine.append(task.id) }
                if number % 3 == 2, let id = mine.popLast() { _ = try? cli.deleteTasks([id]) }
                if number % 4 == 3, let id = mine.first { _ = try? cli.updateTask(id, TaskPatch(title: "CLI edited \(number)")) }
            }
            finished.store(true, ordering: .releasing)
        }
        cliWriter.start()

        let apiDone = Atomic<Bool>(false)
        let apiWriter = Task {
            defer { apiDone.store(true, ordering: .releasing) }
            var mine: [String] = []
            for number in 0..<40 {
                if let id = try await send(.post, "/api/v1/tasks", ["title": "API \(round).\(number)"])["id"] as? String { mine.append(id) }
                if number % 3 == 1, let id = mine.popLast() { _ = try await send(.delete, "/api/v1/tasks/\(id)") }
                if number % 5 == 4, let id = mine.first { _ = try await send(.patch, "/api/v1/tasks/\(id)", ["title": "API edited \(number)"]) }
            }
        }

        var mirror = Mirror()
        // Follow while both write (a round trip at a time); then once more for what came last.
        while !(finished.load(ordering: .acquiring) && apiDone.load(ordering: .acquiring)) {
            mirror.apply(try await send(.get, "/api/v1/changes?since=\(mirror.since)"))
        }
        try await apiWriter.value
        mirror.apply(try await send(.get, "/api/v1/changes?since=\(mirror.since)"))

        let everything = try await send(.get, "/api/v1/tasks?status=all&limit=500")
        var server: [String: String] = [:]
        for task in everything["tasks"] as? [[String: Any]] ?? [] {
            if let id = task["id"] as? String { server[id] = task["title"] as? String }
        }
        #expect(server.count > 0)
        #expect(mirror.tasks == server, "round \(round)")
    }
}

import Foundation
import SlateCore
import SlateHTTP
import SlateServer
import Synchronization
import Testing

/// What the API keeps between requests — task records by revision, each account's default
/// zone — is never served stale: a write from this process or from another one (a second
/// container on the same file, as the CLI would be) shows in the next answer.
@Suite struct RequestCacheTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_795_943_700))  // 2026-11-29T09:15:00Z
        func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    struct Server {
        let folder: URL
        let container: BoardStore
        let api: SlateAPI
        let account: UUID
        let clock: Clock

        init() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cache-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let container = try Slate.openContainer(path: folder.appendingPathComponent("slate.sqlite").path)
            let account = try Slate.ensureAccount(named: "ana", in: container, now: Date(timeIntervalSince1970: 1_795_943_700))
            let clock = Clock()
            self.folder = folder
            self.container = container
            self.account = account.id
            self.clock = clock
            api = SlateAPI(container: container, authenticate: { _ in account.id }, clock: { clock.now.withLock { $0 } })
        }

        var path: String { folder.appendingPathComponent("slate.sqlite").path }

        /// The same file opened again: its writes are another process's to the API.
        func otherProcess() throws -> Slate {
            Slate(container: try Slate.openContainer(path: path), accountID: account)
        }

        func send(_ method: HTTPMethod, _ target: String, json: Any? = nil, zone: String? = "Europe/Paris") async throws -> [String: Any] {
            var headers = HTTPHeaders()
            if let zone { headers["X-Slate-Time-Zone"] = zone }
            var body = Data()
            if let json {
                body = try JSONSerialization.data(withJSONObject: json)
                headers["Content-Type"] = "application/json"
            }
            let response = try await api.router.respond(to: Request(method: method, target: target, headers: headers, body: body))
            #expect(response.status.code < 300, "\(method) \(target) answered \(response.status.code)")
            return (try? JSONSerialization.jsonObject(with: response.bodyData ?? Data()) as? [String: Any]) ?? [:]
        }

        func removeFiles() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func aTaskRecordFollowsEveryWriteFromThisProcessAndAnother() async throws {
        let server = try Server()
        defer { server.removeFiles() }
        let list = try await server.send(.post, "/api/v1/lists", json: ["name": "Story"])
        let listID = try #require(list["id"] as? String)
        let created = try await server.send(.post, "/api/v1/tasks", json: ["title": "One", "listId": listID])
        let id = try #require(created["id"] as? String)
        let page = "/api/v1/tasks?list=\(listID)&limit=50"
        func title() async throws -> (one: String?, inPage: String?) {
            let one = try await server.send(.get, "/api/v1/tasks/\(id)")["title"] as? String
            let tasks = try await server.send(.get, page)["tasks"] as? [[String: Any]]
            return (one, tasks?.first?["title"] as? String)
        }
        #expect(try await title() == ("One", "One"))
        #expect(try await title() == ("One", "One"), "the second read, from the kept record")

        _ = try await server.send(.patch, "/api/v1/tasks/\(id)", json: ["title": "Two"])
        #expect(try await title() == ("Two", "Two"), "a write through this server")

        let other = try server.otherProcess()
        guard let uuid = UUID(uuidString: id) else { Issue.record("not an id: \(id)"); return }
        try other.updateTask(uuid, TaskPatch(title: "Three"))
        #expect(try await title() == ("Three", "Three"), "a write from another process, before any watcher saw it")

        // The list's name is not part of the kept bytes: a rename shows at once.
        _ = try await server.send(.patch, "/api/v1/lists/\(listID)", json: ["name": "Sound"])
        #expect(try await server.send(.get, "/api/v1/tasks/\(id)")["list"] as? String == "Sound")
        _ = try await server.send(.patch, "/api/v1/lists/\(listID)", json: ["name": "Music"])
        #expect(try await server.send(.get, page)["tasks"].flatMap { ($0 as? [[String: Any]])?.first?["list"] as? String } == "Music")
    }

    @Test func overdueAndSubtaskCountsAreWorkedOutAtEveryRead() async throws {
        let server = try Server()
        defer { server.removeFiles() }
        let created = try await server.send(.post, "/api/v1/tasks", json: ["title": "Call the lab", "due": "2026-11-29T10:00:00Z"])
        let id = try #require(created["id"] as? String)
        #expect(try await server.send(.get, "/api/v1/tasks/\(id)")["isOverdue"] as? Bool == false)
        server.clock.advance(3600)  // 10:15Z: past due, and the task did not change
        #expect(try await server.send(.get, "/api/v1/tasks/\(id)")["isOverdue"] as? Bool == true)

        _ = try await server.send(.post, "/api/v1/tasks/\(id)/subtasks", json: ["title": "Book the room"])
        let count = try await server.send(.get, "/api/v1/tasks/\(id)")["subtaskCount"] as? [String: Int]
        #expect(count == ["active": 1, "total": 1], "the count is the subtask's parent's, not its record's")
    }

    @Test func subtaskCountsFollowEveryWriteFromThisProcessAndAnother() async throws {
        let server = try Server()
        defer { server.removeFiles() }
        let created = try await server.send(.post, "/api/v1/tasks", json: ["title": "Dress the set"])
        let id = try #require(created["id"] as? String)
        let parent = try #require(UUID(uuidString: id))
        func counts() async throws -> (one: [String: Int]?, inPage: [String: Int]?) {
            let one = try await server.send(.get, "/api/v1/tasks/\(id)")["subtaskCount"] as? [String: Int]
            let tasks = try await server.send(.get, "/api/v1/tasks?limit=50")["tasks"] as? [[String: Any]]
            let row = tasks?.first { $0["id"] as? String == id }
            return (one, row?["subtaskCount"] as? [String: Int])
        }
        let none = ["active": 0, "total": 0]
        #expect(try await counts() == (none, none))
        #expect(try await counts() == (none, none), "the second read, from what was kept")

        let other = try server.otherProcess()
        let child = try other.addTask(TaskDraft(title: "Hang the curtains", parentID: parent))
        #expect(try await counts() == (["active": 1, "total": 1], ["active": 1, "total": 1]), "a subtask added by another process")
        #expect(try await counts() == (["active": 1, "total": 1], ["active": 1, "total": 1]))

        _ = try await server.send(.patch, "/api/v1/tasks/\(child.id.uuidString.lowercased())", json: ["isCompleted": true])
        #expect(try await counts() == (["active": 0, "total": 1], ["active": 0, "total": 1]), "completed through this server")

        try other.deleteTasks([child.id])
        #expect(try await counts() == (none, none), "deleted by another process")

        // Undone by another process: the subtask is back, and so is the count.
        _ = try other.undo()
        #expect(try await counts() == (["active": 0, "total": 1], ["active": 0, "total": 1]), "a deletion undone elsewhere")
    }

    @Test func theAccountsDefaultZoneFollowsAChangeFromThisProcessAndAnother() async throws {
        let server = try Server()
        defer { server.removeFiles() }
        func due() async throws -> String? {
            try await server.send(.post, "/api/v1/tasks/parse", json: ["text": "Call tomorrow 5pm"], zone: nil)["due"] as? String
        }
        try AccountDirectory(container: server.container).setTimeZone("Europe/Paris", for: server.account)
        #expect(try await due() == "2026-11-30T16:00:00.000Z")
        #expect(try await due() == "2026-11-30T16:00:00.000Z", "again, from the kept zone")
        try AccountDirectory(container: server.container).setTimeZone("America/New_York", for: server.account)
        #expect(try await due() == "2026-11-30T22:00:00.000Z", "a change through this process")
        let other = try server.otherProcess()
        try AccountDirectory(container: other.container).setTimeZone("Asia/Tokyo", for: server.account)
        #expect(try await due() == "2026-11-30T08:00:00.000Z", "a change from another process")
    }
}

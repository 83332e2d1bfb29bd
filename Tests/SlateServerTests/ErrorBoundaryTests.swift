import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
@testable import SlateStore
import Synchronization
import Testing

/// Errors carry stable codes; an unexpected failure answers 500 with a request id and
/// nothing of its details, which go to the log only.
@Suite struct ErrorBoundaryTests {
    @Test func aForcedStoreFailureAnswers500WithoutInternals() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("slate.sqlite").path
        let store = try Slate.openContainer(path: path)
        let account = try Slate.ensureAccount(named: "ana", in: store, now: Date())
        try Slate(container: store, accountID: account.id).addTask(TaskDraft(title: "Here"))
        let api = SlateAPI(container: store, authenticate: { _ in account.id })

        // Break the store under the API: its tasks table is gone.
        try store.pool.write { try $0.execute("ALTER TABLE tasks RENAME TO tasks_gone") }
        for (method, target, body) in [(HTTPMethod.get, "/api/v1/tasks", ""), (.post, "/api/v1/tasks", "{\"title\": \"x\"}"),
                                       (.get, "/api/v1/stats", "")] {
            let response = try await api.router.respond(to: Request(method: method, target: target,
                                                                   headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
            let text = String(decoding: response.bodyData ?? Data(), as: UTF8.self)
            #expect(response.status.code == 500, "\(target): \(text)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let error = try #require(json["error"] as? [String: Any])
            #expect(error["code"] as? String == "internal_error")
            let id = try #require(error["requestId"] as? String)
            #expect(response.headers["X-Request-Id"] == id)
            for leak in ["SQL", "sqlite", "SELECT", "INSERT", "tasks", "no such", folder.path, ".sqlite"] {
                #expect(!text.lowercased().contains(leak.lowercased()), "\(target) leaks '\(leak)': \(text)")
            }
        }
    }

    @Test func theDetailsGoToTheLogUnderTheRequestID() async throws {
        let logged = Mutex<[String]>([])
        struct Broken: Error, CustomStringConvertible { var description: String { "SQLite error 1: no such table: tasks at /var/lib/slate.sqlite" } }
        var router = Router()
        router.use(ErrorBoundary(log: { line in logged.withLock { $0.append(line) } }))
        router.on(.get, "/boom") { _ in throw Broken() }
        router.on(.get, "/gone") { _ in throw SlateError.notFound("task #12") }
        router.on(.get, "/busy") { _ in throw SlateError.busy }
        let boom = try await router.respond(to: Request(method: .get, target: "/boom"))
        let text = String(decoding: boom.bodyData ?? Data(), as: UTF8.self)
        #expect(boom.status.code == 500 && !text.contains("SQLite") && !text.contains("/var/lib"))
        let id = try #require(boom.headers["X-Request-Id"])
        #expect(logged.withLock { $0 }.contains { $0.contains(id) && $0.contains("no such table") })

        let gone = try await router.respond(to: Request(method: .get, target: "/gone"))
        #expect(gone.status.code == 404 && String(decoding: gone.bodyData ?? Data(), as: UTF8.self).contains("\"not_found\""))
        let busy = try await router.respond(to: Request(method: .get, target: "/busy"))
        #expect(busy.status.code == 503 && busy.headers["Retry-After"] == "1")
        #expect(logged.withLock { $0.count } == 1, "client errors are not logged as failures")
    }

    @Test func everyDomainErrorHasAStableCode() {
        let errors: [SlateError] = [.invalid(field: "title", message: "x"), .notFound("x"), .ambiguous("ab", matches: ["#1 “a”", "#2 “b”"], more: false),
                                    .duplicateListName("x"), .conflict("x", currentRevision: 1), .cannotUndo("x"), .busy, .store("x")]
        #expect(errors.map(\.code) == ["invalid_field", "not_found", "ambiguous", "duplicate_name", "stale", "cannot_undo", "busy", "internal_error"])
        #expect(errors.map(\.httpError.code) == errors.map(\.code), "the API answers with the same codes")
    }
}

import Foundation
import SlateCore
import SlateHTTP
import SlateServer
import SlateStore
import Testing

// /healthz and /readyz over a real file: ready, unreachable when the file is moved away,
// back when it returns, and never a path or a library message in the answer.

@Suite struct HealthTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("slate-health-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    private func get(_ service: SlateService, _ path: String) async throws -> (status: Int, json: [String: Any], text: String) {
        let response = try await service.router.respond(to: Request(method: .get, target: path))
        let body = response.bodyData ?? Data()
        return (response.status.code, (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:],
                String(decoding: body, as: UTF8.self))
    }

    @Test func healthzAndReadyzAnswerWithoutSigningIn() async throws {
        let folder = try Folder()
        let container = try Slate.openContainer(path: folder.path("slate.sqlite"))
        let service = SlateService(container: container, webRoot: nil, secureCookies: false, options: ServiceOptions())
        let alive = try await get(service, "/healthz")
        #expect(alive.status == 200)
        #expect(alive.json["status"] as? String == "alive")
        let ready = try await get(service, "/readyz")
        #expect(ready.status == 200)
        #expect(ready.json["status"] as? String == "ready")
        #expect(ready.json["database"] as? String == "ok")
    }

    @Test func readyzIsUnavailableWhileTheDatabaseIsUnreachable() async throws {
        let folder = try Folder()
        let path = folder.path("slate.sqlite")
        let container = try Slate.openContainer(path: path)
        let service = SlateService(container: container, webRoot: nil, secureCookies: false, options: ServiceOptions())
        try FileManager.default.moveItem(atPath: path, toPath: folder.path("elsewhere.sqlite"))
        let gone = try await get(service, "/readyz")
        #expect(gone.status == 503)
        #expect(gone.json["status"] as? String == "unavailable")
        #expect(gone.json["database"] as? String == "unreachable")
        #expect(!gone.text.contains(folder.url.path) && !gone.text.lowercased().contains("sqlite"), "no internals: \(gone.text)")
        #expect(try await get(service, "/healthz").status == 200, "alive all the same")
        try FileManager.default.moveItem(atPath: folder.path("elsewhere.sqlite"), toPath: path)
        #expect(try await get(service, "/readyz").status == 200)
    }

    @Test func readyzSaysOutdatedWhenTheFileHasAnotherSchema() async throws {
        let folder = try Folder()
        let container = try Slate.openContainer(path: folder.path("slate.sqlite"))
        var options = ServiceOptions()
        options.schemaVersion = SlateSchema.version + 1
        let service = SlateService(container: container, webRoot: nil, secureCookies: false, options: options)
        let answer = try await get(service, "/readyz")
        #expect(answer.status == 503)
        #expect(answer.json["schema"] as? String == "outdated")
    }

    @Test func metricsCountTheServicesRequestsAndCommits() async throws {
        let folder = try Folder()
        let container = try Slate.openContainer(path: folder.path("slate.sqlite"))
        var options = ServiceOptions()
        let registry = MetricsRegistry()
        options.metrics = registry
        let counting = ServiceMetrics.register(container, in: registry)
        defer { counting.cancel() }
        let service = SlateService(container: container, webRoot: nil, secureCookies: false, options: options)
        _ = try await get(service, "/healthz")
        _ = try await get(service, "/api/v1/tasks")
        _ = try Slate.ensureAccount(named: "ana", in: container, now: Date())
        let deadline = ContinuousClock.now + .seconds(30)
        while !registry.render().contains("slate_commits_total 1\n"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let text = registry.render()
        #expect(text.contains(#"slate_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
        #expect(text.contains(#"slate_http_requests_total{route="/api/v1/tasks",method="GET",status="401"} 1"#))
        #expect(text.contains("slate_commits_total 1\n"))
        #expect(text.contains("slate_database_bytes "))
        #expect(!text.contains("slate_database_bytes 0\n"))
        #expect(!text.contains("slate_database_announcement_queue_usage"), "a file announces nothing")
        #expect(container.announcementQueueUsage() == nil)
    }
}

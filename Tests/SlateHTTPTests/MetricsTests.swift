import Foundation
import Testing
@testable import SlateHTTP

// Request metrics by route pattern, method and status, latency histograms, open event
// streams, and the JSON form of the service log.

@Suite struct MetricsTests {
    private func router(_ registry: MetricsRegistry) -> Router {
        var router = Router()
        router.on(.get, "/tasks/:id") { _ in .text("task") }
        router.on(.post, "/tasks") { _ in throw HTTPError(.badRequest, code: "invalid", message: "no") }
        router.on(.get, "/events") { _ in
            Response.eventStream(AsyncStream<ServerSentEvent> { continuation in
                continuation.yield(ServerSentEvent(data: "hello"))
            })
        }
        router.use(RequestMetrics(registry: registry, routes: router.routeTable.map(\.pattern)))
        return router
    }

    private func value(_ text: String, _ series: String) -> Int? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Int($0.split(separator: " ").last!) }
    }

    @Test func requestsAreCountedByRoutePatternMethodAndStatus() async throws {
        let registry = MetricsRegistry()
        let router = router(registry)
        for id in ["1", "2", "secret-looking-id"] { _ = try await router.respond(to: Request(method: .get, target: "/tasks/\(id)?token=x")) }
        _ = try await router.respond(to: Request(method: .post, target: "/tasks"))
        _ = try await router.respond(to: Request(method: .delete, target: "/nowhere/at/all"))
        let text = registry.render()
        #expect(value(text, #"slate_http_requests_total{route="/tasks/:id",method="GET",status="200"}"#) == 3)
        #expect(value(text, #"slate_http_requests_total{route="/tasks",method="POST",status="400"}"#) == 1)
        #expect(value(text, #"slate_http_requests_total{route="unmatched",method="DELETE",status="404"}"#) == 1)
        #expect(value(text, #"slate_http_request_duration_seconds_count{route="/tasks/:id",method="GET"}"#) == 3)
        #expect(value(text, #"slate_http_request_duration_seconds_bucket{route="/tasks/:id",method="GET",le="+Inf"}"#) == 3)
        #expect(!text.contains("secret-looking-id") && !text.contains("token"), "no paths or queries in labels")
        #expect(text.contains("# TYPE slate_http_request_duration_seconds histogram"))
    }

    @Test func countersMoveAsRequestsAreMade() async throws {
        let registry = MetricsRegistry()
        let router = router(registry)
        let series = #"slate_http_requests_total{route="/tasks/:id",method="GET",status="200"}"#
        _ = try await router.respond(to: Request(method: .get, target: "/tasks/1"))
        #expect(value(registry.render(), series) == 1)
        _ = try await router.respond(to: Request(method: .get, target: "/tasks/1"))
        #expect(value(registry.render(), series) == 2)
    }

    @Test func openEventStreamsAreCountedUntilTheyEnd() async throws {
        let registry = MetricsRegistry()
        let router = router(registry)
        let response = try await router.respond(to: Request(method: .get, target: "/events"))
        #expect(registry.openStreams == 1)
        guard let chunks = response.body.chunks else { Issue.record("not a stream"); return }
        let reader = Task {
            var iterator = chunks.makeAsyncIterator()
            return await iterator.next()
        }
        let first = await reader.value
        #expect(first.map { String(decoding: $0, as: UTF8.self) }?.contains("data: hello") == true)
        #expect(value(registry.render(), "slate_http_open_event_streams") == 1)
        // The client goes away: the consumer is cancelled and the stream released.
        let closing = Task { for await _ in chunks {} }
        closing.cancel()
        await closing.value
        let deadline = ContinuousClock.now + .seconds(30)
        while registry.openStreams != 0, ContinuousClock.now < deadline { await Task.yield() }
        #expect(registry.openStreams == 0)
        #expect(value(registry.render(), "slate_http_event_streams_opened_total") == 1)
    }

    @Test func aClientThatLeavesIsNoLongerCountedOverTheWire() async throws {
        let registry = MetricsRegistry()
        let (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
        let ended = Latch()
        continuation.onTermination = { _ in ended.open() }
        var router = Router()
        router.on(.get, "/events") { _ in .eventStream(events) }
        router.use(RequestMetrics(registry: registry, routes: router.routeTable.map(\.pattern)))
        try await withServer(router, configure: { $0.sseHeartbeat = .milliseconds(50) }) { server in
            let port = server.port
            try await offPool {
                // A generous bound: a full parallel run can keep the handler waiting a while.
                let connection = try RawConnection(port: port, timeout: 60)
                try connection.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
                _ = try connection.readHead()
            }  // the connection closes here
            #expect(await ended.wait(atMost: .seconds(60)))
            let deadline = ContinuousClock.now + .seconds(30)
            while registry.openStreams != 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(registry.openStreams == 0)
        }
    }

    @Test func sampledGaugesAndCountersAreRendered() {
        let registry = MetricsRegistry()
        registry.addGauge("slate_database_bytes", help: "Bytes.") { 4096 }
        registry.addCounter("slate_commits_total", help: "Commits.") { 7 }
        let text = registry.render()
        #expect(text.contains("# TYPE slate_database_bytes gauge\nslate_database_bytes 4096\n"))
        #expect(text.contains("# TYPE slate_commits_total counter\nslate_commits_total 7\n"))
    }

    @Test func labelledCountersAreRenderedWithEscapedLabels() {
        let registry = MetricsRegistry()
        registry.addCounters("slate_alert_deliveries_total", help: "Deliveries.") {
            [([("channel", "push"), ("outcome", "sent")], 3), ([("channel", "we\"b"), ("outcome", "failed")], 1)]
        }
        let text = registry.render()
        #expect(text.contains("# TYPE slate_alert_deliveries_total counter\n"))
        #expect(text.contains("slate_alert_deliveries_total{channel=\"push\",outcome=\"sent\"} 3\n"))
        #expect(text.contains("slate_alert_deliveries_total{channel=\"we\\\"b\",outcome=\"failed\"} 1\n"))
    }

    @Test func theServiceLogWritesJSONLinesWithoutTheQuery() async throws {
        let lines = LogLines()
        let log = ServiceLog(format: .json, write: lines.writer)
        var router = Router()
        router.use(AccessLog(log: log))
        router.on(.get, "/tasks") { _ in .text("12345") }
        _ = try await router.respond(to: Request(method: .get, target: "/tasks?token=secret"))
        log.event("listening", ["address": "127.0.0.1:8080"])
        log.format = .text
        log.event("stopping")
        let all = lines.all
        #expect(all.count == 3)
        let request = try JSONSerialization.jsonObject(with: Data(all[0].utf8)) as? [String: Any]
        #expect(request?["event"] as? String == "request")
        #expect(request?["path"] as? String == "/tasks")
        #expect(request?["status"] as? Int == 200)
        #expect(request?["client"] as? String == "127.0.0.1")
        #expect(!all[0].contains("secret"))
        let event = try JSONSerialization.jsonObject(with: Data(all[1].utf8)) as? [String: Any]
        #expect(event?["address"] as? String == "127.0.0.1:8080")
        #expect(event?["time"] is String)
        #expect(all[2] == "slate: stopping")
    }
}

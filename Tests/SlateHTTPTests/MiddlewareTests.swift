import Foundation
import Testing
@testable import SlateHTTP

@Suite struct MiddlewareTests {
    @Test func securityHeadersAreAddedToAnswersAndErrors() async throws {
        var router = Router()
        router.use(SecurityHeaders())
        router.on(.get, "/") { _ in .text("hi") }
        for path in ["/", "/missing"] {
            let response = try await router.respond(to: Request(method: .get, target: path))
            #expect(response.headers["Content-Security-Policy"] == "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            #expect(response.headers["Referrer-Policy"] == "no-referrer")
            #expect(response.headers["X-Frame-Options"] == "DENY")
        }
    }

    @Test func securityHeadersAreConfigurableAndRoutesMayOverride() async throws {
        var headers = SecurityHeaders()
        headers.frameOptions = nil
        headers.additional = ["Strict-Transport-Security": "max-age=63072000"]
        var router = Router()
        router.use(headers)
        router.on(.get, "/embed") { _ in Response(headers: ["Content-Security-Policy": "frame-ancestors *"]) }
        let response = try await router.respond(to: Request(method: .get, target: "/embed"))
        #expect(response.headers["Content-Security-Policy"] == "frame-ancestors *")
        #expect(response.headers["X-Frame-Options"] == nil)
        #expect(response.headers["Strict-Transport-Security"] == "max-age=63072000")
    }

    @Test func accessLogWritesOneLinePerRequest() async throws {
        let lines = LogLines()
        var router = Router()
        router.use(AccessLog(write: lines.writer))
        router.on(.get, "/tasks") { _ in .text("12345") }
        router.on(.get, "/events") { _ in Response(body: .stream(AsyncStream { $0.finish() })) }
        _ = try await router.respond(to: Request(method: .get, target: "/tasks?token=secret"))
        _ = try await router.respond(to: Request(method: .get, target: "/missing"))
        _ = try await router.respond(to: Request(method: .get, target: "/events"))
        let logged = lines.all
        #expect(logged.count == 3)
        #expect(logged[0].hasPrefix("GET /tasks 200 5B ") && logged[0].hasSuffix("ms"))
        #expect(!logged[0].contains("secret"))
        #expect(logged[1].hasPrefix("GET /missing 404 "))
        #expect(logged[2].hasPrefix("GET /events 200 stream "))
    }

    @Test func accessLogLevels() async throws {
        let errorsOnly = LogLines()
        let silent = LogLines()
        var router = Router()
        router.use(AccessLog(level: .errors, write: errorsOnly.writer))
        router.use(AccessLog(level: .off, write: silent.writer))
        router.on(.get, "/ok") { _ in .text("fine") }
        router.on(.get, "/boom") { _ in throw CancellationError() }
        _ = try await router.respond(to: Request(method: .get, target: "/ok"))
        _ = try await router.respond(to: Request(method: .get, target: "/nope"))
        await #expect(throws: CancellationError.self) { try await router.respond(to: Request(method: .get, target: "/boom")) }
        #expect(errorsOnly.all.count == 2)
        #expect(errorsOnly.all[0].hasPrefix("GET /nope 404 "))
        #expect(errorsOnly.all[1].hasPrefix("GET /boom 500 - "))
        #expect(silent.all.isEmpty)
    }
}

@Suite struct ServerSentEventTests {
    @Test(arguments: [
        (ServerSentEvent(data: "hello"), "data: hello\n\n"),
        (ServerSentEvent(id: "7", event: "task.updated", data: "{\"id\":1}"), "id: 7\nevent: task.updated\ndata: {\"id\":1}\n\n"),
        (ServerSentEvent(data: "one\ntwo\r\nthree\rfour"), "data: one\ndata: two\ndata: three\ndata: four\n\n"),
        (ServerSentEvent(data: ""), "data: \n\n"),
        (ServerSentEvent(data: "\r\n\r\n\n\rx\r"), "data: \ndata: \ndata: \ndata: \ndata: x\ndata: \n\n"),
        (ServerSentEvent(data: "é ✓\r\r\nz"), "data: é ✓\ndata: \ndata: z\n\n"),
        (ServerSentEvent(id: "a\nb", event: "x\r\ny", data: "z", retry: 3000), "id: ab\nevent: xy\nretry: 3000\ndata: z\n\n"),
    ])
    func encodesFrames(event: ServerSentEvent, expected: String) {
        #expect(String(decoding: event.encoded, as: UTF8.self) == expected)
    }

    @Test func changingAFieldEncodesTheFrameAgain() {
        var event = ServerSentEvent(data: "one")
        event.id = "9"
        event.event = "change"
        event.retry = 10
        event.data = "two\nlines"
        #expect(String(decoding: event.encoded, as: UTF8.self) == "id: 9\nevent: change\nretry: 10\ndata: two\ndata: lines\n\n")
    }

    @Test func commentsAndHeaders() {
        #expect(String(decoding: ServerSentEvent.comment("keepalive"), as: UTF8.self) == ": keepalive\n\n")
        #expect(StreamPump.heartbeatFrame == ServerSentEvent.comment("keepalive"))
        let response = Response.eventStream(AsyncStream<ServerSentEvent> { $0.finish() })
        #expect(response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-cache")
    }

    @Test func eventStreamBodiesCarryEncodedFrames() async {
        let events = AsyncStream<ServerSentEvent> { continuation in
            continuation.yield(ServerSentEvent(id: "1", data: "a"))
            continuation.yield(ServerSentEvent(id: "2", data: "b\nc"))
            continuation.finish()
        }
        guard let chunks = Response.eventStream(events).body.chunks else {
            Issue.record("not a stream")
            return
        }
        var text = ""
        for await chunk in chunks { text += String(decoding: chunk, as: UTF8.self) }
        #expect(text == "id: 1\ndata: a\n\nid: 2\ndata: b\ndata: c\n\n")
    }
}

/// The access log's milliseconds are written as `String(format: "%.1f")` writes them.
@Suite struct LogMillisecondsTests {
    @Test(arguments: [0, 0.01, 0.04, 0.06, 0.5, 0.94, 0.96, 1, 9.99, 12.34, 99.96, 1234.5678, 86_400_000])
    func oneDecimalAsPrintfWritesIt(milliseconds: Double) {
        #expect(ServiceLog.tenths(milliseconds) == String(format: "%.1f", milliseconds))
    }
}

/// Standard error's request lines go out in batches (`LineBatch`): each within the delay, all
/// in order, and an event line at once, after the lines before it.
@Suite struct LineBatchTests {
    /// What arrived on the pipe's read end so far.
    private static func read(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func requestLinesArriveWithinTheDelayInOrderAndAnEventAtOnce() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let batch = LineBatch(fileDescriptor: ends[1], delay: .milliseconds(50))

        batch.append("GET /a 200 2B 0.1ms", now: false)
        batch.append("GET /b 200 2B 0.1ms", now: false)
        var seen = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while !seen.contains("GET /b"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
            seen += Self.read(ends[0])
        }
        #expect(seen == "GET /a 200 2B 0.1ms\nGET /b 200 2B 0.1ms\n")

        // An event line is written at once, with the request line before it, in order.
        batch.append("GET /c 200 2B 0.1ms", now: false)
        batch.append("slate: stopped", now: true)
        #expect(Self.read(ends[0]) == "GET /c 200 2B 0.1ms\nslate: stopped\n")
    }
}

import Foundation
import Testing
@testable import SlateHTTP

extension OverTheWire {
    /// Server-Sent Events and static files through a real socket.
    @Suite struct StreamingTests {
        /// Opens `/events`, reads the response head, and closes the connection.
        static func openAndLeave(port: Int) async throws {
            try await offPool {
                let connection = try RawConnection(port: port)
                try connection.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
                _ = try connection.readHead()
            }  // the connection closes here
        }

        @Test func eventsArriveAsTheyHappenWithHeartbeatsBetween() async throws {
            let (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
            var router = Router()
            router.on(.get, "/events") { _ in .eventStream(events) }
            try await withServer(router, configure: { $0.sseHeartbeat = .milliseconds(100) }) { server in
                let connection = try await offPool { try RawConnection(port: server.port) }
                let head = try await offPool {
                    try connection.send("GET /events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n")
                    return try connection.readHead()
                }
                #expect(head.status == 200)
                #expect(head.headers["Content-Type"] == "text/event-stream; charset=utf-8")
                #expect(head.headers["Transfer-Encoding"] == "chunked")

                continuation.yield(ServerSentEvent(id: "1", event: "task.created", data: "line one\nline two"))
                let first = try await offPool { try connection.readChunks(until: "line two\n\n") }
                #expect(first.hasSuffix("id: 1\nevent: task.created\ndata: line one\ndata: line two\n\n"))

                // Nothing happens for a while: the server keeps the stream alive by itself.
                let idle = try await offPool { try connection.readChunks(until: ": keepalive\n\n") }
                #expect(idle.hasSuffix(": keepalive\n\n"))

                continuation.yield(ServerSentEvent(id: "2", data: "after"))
                continuation.finish()
                let rest = try await offPool { try connection.readToEndOfStream() }
                #expect(rest.hasSuffix("id: 2\ndata: after\n\n"))
            }
        }

        @Test func aClientThatLeavesEndsItsStream() async throws {
            let (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
            let ended = Latch()
            continuation.onTermination = { _ in ended.open() }
            var router = Router()
            router.on(.get, "/events") { _ in .eventStream(events) }
            try await withServer(router, configure: { $0.sseHeartbeat = .milliseconds(50) }) { server in
                try await Self.openAndLeave(port: server.port)
                #expect(await ended.wait(atMost: .seconds(10)))
            }
        }

        @Test func aClientThatLeavesIsNoticedAtOnceNotByTheNextWrite() async throws {
            // No event and no heartbeat for an hour: only watching the socket can tell.
            let (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
            let ended = Latch()
            continuation.onTermination = { _ in ended.open() }
            var router = Router()
            router.on(.get, "/events") { _ in .eventStream(events) }
            try await withServer(router, configure: { $0.sseHeartbeat = .seconds(3600) }) { server in
                try await Self.openAndLeave(port: server.port)
                #expect(await ended.wait(atMost: .seconds(10)), "the stream ends when its client hangs up")
            }
        }

        @Test func aChannelSendsWhatWasWrittenBeforeAndAfterWithHeartbeatsThenEnds() async throws {
            let channel = StreamChannel()
            let ended = Latch()
            channel.onTermination { ended.open() }
            var router = Router()
            router.on(.get, "/events") { _ in
                // Written before the server takes the response: sent first, in order.
                channel.send(ServerSentEvent(id: "1", data: "early").encoded)
                return Response(status: .ok, headers: Response.eventStreamHeaders, body: .channel(channel))
            }
            try await withServer(router, configure: { $0.sseHeartbeat = .milliseconds(100) }) { server in
                let connection = try await offPool { try RawConnection(port: server.port) }
                let head = try await offPool {
                    try connection.send("GET /events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n")
                    return try connection.readHead()
                }
                #expect(head.status == 200 && head.headers["Transfer-Encoding"] == "chunked")
                let first = try await offPool { try connection.readChunks(until: "data: early\n\n") }
                #expect(first.hasSuffix("id: 1\ndata: early\n\n"))
                #expect(channel.send(ServerSentEvent(id: "2", data: "later").encoded))
                let second = try await offPool { try connection.readChunks(until: "data: later\n\n") }
                #expect(second.hasSuffix("id: 2\ndata: later\n\n"))
                // Idle: the server's one heartbeat thread keeps this stream alive too.
                let idle = try await offPool { try connection.readChunks(until: ": keepalive\n\n") }
                #expect(idle.hasSuffix(": keepalive\n\n"))
                channel.send(ServerSentEvent(id: "3", data: "last").encoded)
                channel.finish()
                let rest = try await offPool { try connection.readToEndOfStream() }
                #expect(rest.hasSuffix("id: 3\ndata: last\n\n"))
                #expect(await ended.wait(atMost: .seconds(10)))
                #expect(!channel.send(Data("too late".utf8)), "nothing is accepted after the end")
            }
        }

        @Test func aChannelFinishedBeforeTheServerTakesItStillDeliversWhatWasSent() async throws {
            var router = Router()
            router.on(.get, "/events") { _ in
                let channel = StreamChannel()
                channel.send(ServerSentEvent(id: "1", data: "only").encoded)
                channel.finish()
                return Response(status: .ok, headers: Response.eventStreamHeaders, body: .channel(channel))
            }
            try await withServer(router) { server in
                let connection = try await offPool { try RawConnection(port: server.port) }
                let rest = try await offPool {
                    try connection.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
                    _ = try connection.readHead()
                    return try connection.readToEndOfStream()
                }
                #expect(rest.hasSuffix("id: 1\ndata: only\n\n"))
            }
        }

        @Test func aChannelsClientLeavingRunsItsTerminationAndRefusesMoreChunks() async throws {
            let channel = StreamChannel()
            let ended = Latch()
            channel.onTermination { ended.open() }
            var router = Router()
            router.on(.get, "/events") { _ in Response(status: .ok, headers: Response.eventStreamHeaders, body: .channel(channel)) }
            try await withServer(router, configure: { $0.sseHeartbeat = .seconds(3600) }) { server in
                try await Self.openAndLeave(port: server.port)
                #expect(await ended.wait(atMost: .seconds(10)), "the stream ends when its client hangs up")
                #expect(!channel.send(Data("data: x\n\n".utf8)))
                #expect(channel.isOver)
            }
        }

        @Test func staticFilesOverTheWire() async throws {
            let site = try TemporaryDirectory()
            let script = String(repeating: "export const answer = 42;\n", count: 200)
            try site.write("app.js", script)
            try site.write("index.html", "<!doctype html><title>Slate</title>")
            var router = Router()
            router.use(SecurityHeaders())
            router.use(StaticFiles(root: site.path))
            try await withServer(router) { server in
                let port = server.port
                let (plain, head, gzipped, revalidated, index) = try await offPool {
                    let connection = try RawConnection(port: port)
                    let plain = try connection.exchange("GET /app.js HTTP/1.1\r\nHost: t\r\n\r\n")
                    let head = try connection.exchange("HEAD /app.js HTTP/1.1\r\nHost: t\r\n\r\n", hasBody: false)
                    let gzipped = try connection.exchange("GET /app.js HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip, deflate\r\n\r\n")
                    let tag = gzipped.headers["ETag"] ?? ""
                    let revalidated = try connection.exchange(
                        "GET /app.js HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\nIf-None-Match: \(tag)\r\n\r\n")
                    let index = try connection.exchange("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                    return (plain, head, gzipped, revalidated, index)
                }
                #expect(plain.status == 200 && plain.text == script)
                #expect(plain.headers["Content-Type"] == "text/javascript; charset=utf-8")
                #expect(plain.headers["X-Content-Type-Options"] == "nosniff")
                #expect(head.status == 200 && head.headers["Content-Length"] == "\(script.utf8.count)")
                #expect(gzipped.headers["Content-Encoding"] == "gzip")
                #expect(gzipped.body.count < script.utf8.count)
                #expect(Gzip.decompress(gzipped.body).map { String(decoding: $0, as: UTF8.self) } == script)
                #expect(revalidated.status == 304 && revalidated.body.isEmpty)
                #expect(revalidated.headers["ETag"] == gzipped.headers["ETag"])
                #expect(index.text == "<!doctype html><title>Slate</title>")
            }
        }
    }
}

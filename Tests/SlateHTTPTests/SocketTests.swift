import Foundation
import Synchronization
import Testing
@testable import SlateHTTP

extension OverTheWire {
    /// Through a real socket on 127.0.0.1 with exact bytes. Serialized: each test starts its
    /// own server, and the machine has two cores.
    @Suite struct SocketTests {
        static func router(handled: LogLines? = nil) -> Router {
            var router = Router()
            router.on(.get, "/hello/:name") { request in
                .text("hello \(request.parameters["name"]!) \(request.queryValue("greeting") ?? "")")
            }
            router.on(.post, "/echo") { request in
                handled?.writer("echo")
                return Response(headers: ["Content-Type": "application/octet-stream"], body: .data(request.body))
            }
            router.on("PROPFIND", "/dav/:calendar") { request in
                Response(status: .multiStatus, headers: ["Content-Type": "application/xml"],
                         body: .data(Data("<multistatus calendar=\"\(request.parameters["calendar"]!)\" depth=\"\(request.headers["Depth"] ?? "")\">".utf8) + request.body))
            }
            router.on(.get, "/boom") { _ in throw CocoaError(.fileReadCorruptFile) }
            return router
        }

        @Test func getWithParametersQueryAndPercentEncoding() async throws {
            try await withServer(Self.router()) { server in
                let port = server.port
                #expect(port > 0)
                let response = try await offPool {
                    try RawConnection(port: port).exchange("GET /hello/J%C3%BCrgen%2Fx?greeting=good+day HTTP/1.1\r\nHost: t\r\n\r\n")
                }
                #expect(response.status == 200)
                #expect(response.text == "hello Jürgen/x good day")
                #expect(response.headers["Content-Length"] == "\(response.body.count)")
            }
        }

        @Test func customMethodWithBodyReachesTheHandler() async throws {
            try await withServer(Self.router()) { server in
                let port = server.port
                let body = "<propfind><prop><displayname/></prop></propfind>"
                let response = try await offPool {
                    try RawConnection(port: port).exchange(
                        "PROPFIND /dav/work HTTP/1.1\r\nHost: t\r\nDepth: 1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                }
                #expect(response.status == 207)
                #expect(response.text == "<multistatus calendar=\"work\" depth=\"1\">" + body)
            }
        }

        @Test func headHasHeadersButNoBodyAndKeepAliveReusesTheConnection() async throws {
            try await withServer(Self.router()) { server in
                let port = server.port
                let (head, get, second) = try await offPool {
                    let connection = try RawConnection(port: port)
                    let head = try connection.exchange("HEAD /hello/a HTTP/1.1\r\nHost: t\r\n\r\n", hasBody: false)
                    let get = try connection.exchange("GET /hello/b HTTP/1.1\r\nHost: t\r\n\r\n")
                    let second = try connection.exchange("GET /hello/c HTTP/1.1\r\nHost: t\r\n\r\n")
                    return (head, get, second)
                }
                #expect(head.status == 200 && head.headers["Content-Length"] == "8")
                #expect(get.text == "hello b " && second.text == "hello c ")
            }
        }

        @Test func bodiesArriveWhole() async throws {
            try await withServer(Self.router()) { server in
                let port = server.port
                let body = Data((0..<300_000).map { UInt8($0 % 251) })
                let response = try await offPool {
                    let connection = try RawConnection(port: port)
                    try connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n")
                    for start in stride(from: 0, to: body.count, by: 50_000) {
                        try connection.send(body[start..<min(start + 50_000, body.count)])
                    }
                    return try connection.readResponse()
                }
                #expect(response.status == 200 && response.body == body)
            }
        }

        @Test func declaredOversizeBodyIs413BeforeItIsRead() async throws {
            let handled = LogLines()
            try await withServer(Self.router(handled: handled)) { server in
                let port = server.port
                let (response, closed) = try await offPool {
                    let connection = try RawConnection(port: port)
                    // Headers only: the body is never sent, so a response proves it was not awaited.
                    let response = try connection.exchange("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(2 << 20)\r\n\r\n")
                    return (response, try connection.isClosedByServer())
                }
                #expect(response.status == 413)
                #expect(response.headers["Content-Type"] == "application/json")
                #expect(response.text == #"{"error":{"code":"body_too_large","field":"body","message":"The request body is larger than 1048576 bytes."}}"#)
                #expect(closed)
            }
            #expect(handled.all.isEmpty)
        }

        @Test func chunkedBodyPastTheLimitIsRefused() async throws {
            let handled = LogLines()
            try await withServer(Self.router(handled: handled), configure: { $0.maxBodySize = 1000 }) { server in
                let port = server.port
                let outcome = try await offPool { () -> String in
                    let connection = try RawConnection(port: port)
                    try connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
                    let chunk = String(repeating: "x", count: 600)
                    do {
                        for _ in 0..<4 { try connection.send("258\r\n\(chunk)\r\n") }
                        try connection.send("0\r\n\r\n")
                    } catch {
                        return "closed while sending"
                    }
                    do { return "status \(try connection.readResponse().status)" } catch { return "closed" }
                }
                // libmicrohttpd 0.9.75 cannot queue a response in the middle of a body, so the
                // connection is dropped; a later version may answer 413 instead.
                #expect(outcome == "status 413" || outcome.hasPrefix("closed"))
            }
            #expect(handled.all.isEmpty)
        }

        @Test func unexpectedErrorsAre500WithoutDetails() async throws {
            try await withServer(Self.router()) { server in
                let port = server.port
                let response = try await offPool { try RawConnection(port: port).exchange("GET /boom HTTP/1.1\r\nHost: t\r\n\r\n") }
                #expect(response.status == 500)
                #expect(response.text == #"{"error":{"code":"internal_error","message":"The server could not complete the request."}}"#)
            }
        }

        @Test func aFileThatVanishedIs404() async throws {
            var router = Router()
            router.on(.get, "/gone") { _ in Response(body: .file(path: "/nonexistent/slate-\(UUID().uuidString)", length: 10)) }
            try await withServer(router) { server in
                let port = server.port
                let response = try await offPool { try RawConnection(port: port).exchange("GET /gone HTTP/1.1\r\nHost: t\r\n\r\n") }
                #expect(response.status == 404 && response.headers["Content-Type"] == "application/json")
            }
        }

        @Test func unknownRoutesAre404JSON() async throws {
            try await withServer(Self.router()) { server in
                let port = server.port
                let (missing, wrongMethod) = try await offPool {
                    let connection = try RawConnection(port: port)
                    return (try connection.exchange("GET /nope HTTP/1.1\r\nHost: t\r\n\r\n"),
                            try connection.exchange("DELETE /echo HTTP/1.1\r\nHost: t\r\n\r\n"))
                }
                #expect(missing.status == 404 && missing.headers["Content-Type"] == "application/json")
                #expect(wrongMethod.status == 405 && wrongMethod.headers["Allow"] == "POST")
            }
        }

        @Test func oversizeHeadersAreRefused() async throws {
            try await withServer(Self.router(), configure: { $0.maxHeaderSize = 4096 }) { server in
                let port = server.port
                let big = String(repeating: "a", count: 40_000)
                let outcome = try await offPool { () -> Int in
                    let connection = try RawConnection(port: port)
                    try? connection.send("GET /hello/x HTTP/1.1\r\nHost: t\r\nX-Big: \(big)\r\n\r\n")
                    return (try? connection.readResponse().status) ?? 0
                }
                #expect(outcome == 431)
            }
        }

        @Test func connectionsPerAddressAreLimited() async throws {
            try await withServer(Self.router(), configure: { $0.connectionsPerIP = 2; $0.threadPoolSize = 1 }) { server in
                let port = server.port
                let (first, third) = try await offPool {
                    let first = try RawConnection(port: port)
                    let second = try RawConnection(port: port)
                    _ = try first.exchange("GET /hello/1 HTTP/1.1\r\nHost: t\r\n\r\n")
                    _ = try second.exchange("GET /hello/2 HTTP/1.1\r\nHost: t\r\n\r\n")
                    let third = try RawConnection(port: port)
                    try? third.send("GET /hello/3 HTTP/1.1\r\nHost: t\r\n\r\n")
                    return (try first.exchange("GET /hello/1 HTTP/1.1\r\nHost: t\r\n\r\n").status, try third.isClosedByServer())
                }
                #expect(first == 200)
                #expect(third)
            }
        }

        @Test func pastThreeQuartersOfTheTotalTheOldestIdleConnectionMakesRoom() async throws {
            // One network thread: with a pool, the library splits the total between threads.
            try await withServer(Self.router(), configure: { $0.maxConnections = 4; $0.threadPoolSize = 1 }) { server in
                let port = server.port
                let (oldestClosed, fresh, kept) = try await offPool {
                    let idle = try (0..<3).map { _ in try RawConnection(port: port) }
                    for (index, connection) in idle.enumerated() {
                        _ = try connection.exchange("GET /hello/\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
                    }
                    // A fourth passes the high-water mark (3 of 4): the oldest idle one is closed.
                    let fresh = try RawConnection(port: port).exchange("GET /hello/4 HTTP/1.1\r\nHost: t\r\n\r\n")
                    let oldestClosed = try idle[0].isClosedByServer()
                    let kept = try idle[2].exchange("GET /hello/2 HTTP/1.1\r\nHost: t\r\n\r\n")
                    return (oldestClosed, fresh, kept)
                }
                #expect(fresh.status == 200 && fresh.text == "hello 4 ")
                #expect(oldestClosed)
                #expect(kept.status == 200, "the youngest idle connection was kept")
            }
        }

        @Test func idleConnectionsAreClosed() async throws {
            try await withServer(Self.router(), configure: { $0.idleTimeout = .seconds(1) }) { server in
                let port = server.port
                let closed = try await offPool {
                    let connection = try RawConnection(port: port)
                    _ = try connection.exchange("GET /hello/x HTTP/1.1\r\nHost: t\r\n\r\n")
                    return try connection.isClosedByServer()  // the read itself gives up after 10 s
                }
                #expect(closed)
            }
        }

        @Test func concurrentClientsAreAllAnswered() async throws {
            var router = Router()
            router.on(.get, "/n/:n") { request in
                await Task.yield()
                return .text(request.parameters["n"]!)
            }
            try await withServer(router) { server in
                let port = server.port
                let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                    for client in 0..<8 {
                        group.addTask {
                            try await offPool {
                                let connection = try RawConnection(port: port)
                                var right = 0
                                for index in 0..<50 {
                                    let n = client * 1000 + index
                                    if try connection.exchange("GET /n/\(n) HTTP/1.1\r\nHost: t\r\n\r\n").text == "\(n)" { right += 1 }
                                }
                                return right
                            }
                        }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(answers == 400)
            }
        }
    }
}

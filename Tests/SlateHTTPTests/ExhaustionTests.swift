import Foundation
import Testing
@testable import SlateHTTP

extension OverTheWire {
    /// Slow and idle clients over real sockets: a request head has a deadline however
    /// slowly it trickles, and a crowd of idle or half-sent connections from many addresses
    /// (each under the per-address cap) does not keep a normal client from being served.
    /// Scaled down (a total of 64 connections, 150 attackers) so it stays quick on two cores.
    @Suite struct ExhaustionTests {
        static var router: Router {
            var router = Router()
            router.on(.get, "/ping") { _ in .text("pong") }
            return router
        }

        /// Opens `count` connections from 20 loopback addresses; every other one sends half a head.
        static func attack(port: Int, count: Int) throws -> [RawConnection] {
            try (0..<count).map { index in
                let connection = try RawConnection(port: port, from: "127.0.9.\(index % 20 + 1)")
                if index % 2 == 1 { try connection.send("GET /ping HTTP/1.1\r\nHost: t\r\nX-Slow: ") }
                return connection
            }
        }

        /// A normal client's request; its latency goes to the test's output.
        static func normalClient(port: Int, label: String) throws -> RawResponse {
            let start = ContinuousClock.now
            let response = try RawConnection(port: port, timeout: 20).exchange("GET /ping HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            print("ExhaustionTests: a normal client under \(label) was served in \(ContinuousClock.now - start)")
            return response
        }

        @Test func aNormalClientIsServedPastAHeapOfIdleAndHalfSentConnections() async throws {
            // The head deadline is long here (60 s): only eviction can make room within the
            // client's 20 s (generous for a loaded machine, still a third of that deadline).
            try await withServer(Self.router, configure: {
                $0.maxConnections = 64
                $0.threadPoolSize = 1
                $0.headerTimeout = .seconds(60)
            }) { server in
                let port = server.port
                let response = try await offPool {
                    let attackers = try Self.attack(port: port, count: 150)
                    defer { _ = attackers }
                    return try Self.normalClient(port: port, label: "150 idle and half-sent connections")
                }
                #expect(response.status == 200 && response.text == "pong")
            }
        }

        @Test func aHeadSentAByteAtATimeIsCutOffAtTheDeadline() async throws {
            try await withServer(Self.router, configure: { $0.headerTimeout = .seconds(1); $0.idleTimeout = .seconds(60) }) { server in
                let port = server.port
                let closed = try await offPool {
                    let connection = try RawConnection(port: port)
                    let head = Array("GET /ping HTTP/1.1\r\nHost: t\r\nX-Padding: " + String(repeating: "a", count: 200))
                    // A byte every 200 ms resets an idle timer, but not the head's deadline.
                    for byte in head {
                        guard connection.hearsNothing(forMilliseconds: 200) else { return try connection.isClosedByServer() }
                        do { try connection.send(String(byte)) } catch { return true }
                    }
                    return false
                }
                #expect(closed, "the connection was closed long before its 40 s head was complete")
            }
        }

        @Test func aBodySentAByteAtATimeIsCutOffAtItsDeadline() async throws {
            var router = Self.router
            router.on(.post, "/upload") { request in .text("\(request.body.count)") }
            try await withServer(router, configure: { $0.bodyTimeout = .seconds(1); $0.idleTimeout = .seconds(60) }) { server in
                let port = server.port
                let (closed, whole) = try await offPool {
                    let connection = try RawConnection(port: port)
                    try connection.send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 200\r\n\r\n")
                    var closed = false
                    for _ in 0..<200 {
                        guard connection.hearsNothing(forMilliseconds: 200) else { closed = try connection.isClosedByServer(); break }
                        do { try connection.send("a") } catch { closed = true; break }
                    }
                    // A body sent at once is still fine.
                    let whole = try RawConnection(port: port).exchange(
                        "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 200\r\n\r\n" + String(repeating: "a", count: 200))
                    return (closed, whole)
                }
                #expect(closed, "the connection was closed long before its 40 s body was complete")
                #expect(whole.status == 200 && whole.text == "200")
            }
        }

        @Test func aNormalClientIsServedWhileSlowHeadsKeepComing() async throws {
            try await withServer(Self.router, configure: {
                $0.maxConnections = 64
                $0.threadPoolSize = 1
                $0.headerTimeout = .seconds(2)
            }) { server in
                let port = server.port
                let responses = try await offPool {
                    var attackers = try Self.attack(port: port, count: 100)
                    var responses: [RawResponse] = []
                    for round in 0..<3 {
                        attackers += try Self.attack(port: port, count: 30)
                        responses.append(try Self.normalClient(port: port, label: "slow heads, round \(round + 1)"))
                    }
                    _ = attackers
                    return responses
                }
                #expect(responses.count == 3 && responses.allSatisfy { $0.status == 200 })
            }
        }
    }
}

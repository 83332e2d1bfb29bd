import Dispatch
import Foundation
import Synchronization
import Testing
@testable import SlateHTTP

#if canImport(Glibc)
import Glibc
#endif

extension OverTheWire {
    /// Where a responder runs: on the library's thread that received the request until it
    /// first waits, and wherever it is resumed after that. Every answer reaches its client,
    /// however early it arrives.
    @Suite struct ResponderStartTests {
        /// The name of the calling thread, as the kernel knows it.
        static func threadName() -> String {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unknown"
            return name.trimmingCharacters(in: .newlines)
        }

        @Test func aResponderThatNeverWaitsAnswersOnTheThreadThatReceivedTheRequest() async throws {
            var router = Router()
            router.on(.get, "/here") { _ in .text(Self.threadName()) }
            router.on(.post, "/here") { request in .text("\(request.body.count) " + Self.threadName()) }
            router.on(.get, "/after-a-wait") { _ in
                await Task.yield()
                return .text(Self.threadName())
            }
            try await withServer(router) { server in
                let port = server.port
                let large = ServerCore.immediateBodyLimit + 1
                let (here, later, small, big) = try await offPool {
                    let connection = try RawConnection(port: port)
                    let here = try connection.exchange("GET /here HTTP/1.1\r\nHost: t\r\n\r\n")
                    let later = try connection.exchange("GET /after-a-wait HTTP/1.1\r\nHost: t\r\n\r\n")
                    let small = try connection.exchange("POST /here HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nsmall")
                    let big = try connection.exchange("POST /here HTTP/1.1\r\nHost: t\r\nContent-Length: \(large)\r\n\r\n"
                        + String(repeating: "x", count: large))
                    return (here, later, small, big)
                }
                #expect([here, later, small, big].allSatisfy { $0.status == 200 })
                // libmicrohttpd names its threads; the responder ran on one of them.
                #expect(here.text.hasPrefix("MHD"), "answered on \(here.text)")
                #expect(small.text.hasPrefix("5 MHD"), "answered on \(small.text)")
                // A large body's handler starts on Swift's pool: its parsing holds no
                // connection of the library's thread waiting.
                #expect(big.text.hasPrefix("\(large) ") && !big.text.contains("MHD"), "answered on \(big.text)")
            }
        }

        /// With many connections open, a responder starts on Swift's pool, first come first
        /// served, and the library's threads only read and write.
        @Test func withManyConnectionsOpenRespondersStartOnSwiftsPool() async throws {
            var router = Router()
            router.on(.get, "/here") { _ in .text(Self.threadName()) }
            try await withServer(router) { server in
                let port = server.port
                let (crowded, alone) = try await offPool {
                    // Open and known to the server: each has been answered once.
                    let others = try (0..<ServerCore.inPlaceConnections).map { _ in
                        let connection = try RawConnection(port: port)
                        _ = try connection.exchange("GET /here HTTP/1.1\r\nHost: t\r\n\r\n")
                        return connection
                    }
                    let connection = try RawConnection(port: port)
                    let crowded = try connection.exchange("GET /here HTTP/1.1\r\nHost: t\r\n\r\n")
                    for other in others { try other.send("GET /here HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"); _ = try other.readResponse() }
                    // Until the server has seen them closed, a request may still find them open.
                    var alone = try connection.exchange("GET /here HTTP/1.1\r\nHost: t\r\n\r\n")
                    for _ in 0..<200 where !alone.text.hasPrefix("MHD") {
                        usleep(10_000)
                        alone = try connection.exchange("GET /here HTTP/1.1\r\nHost: t\r\n\r\n")
                    }
                    return (crowded, alone)
                }
                #expect(crowded.status == 200 && !crowded.text.hasPrefix("MHD"), "answered on \(crowded.text)")
                #expect(alone.text.hasPrefix("MHD"), "answered on \(alone.text) once the others closed")
            }
        }

        /// Answers from other threads race the suspension of their connection: some arrive
        /// before it is made, some after. A lost resume would leave a keep-alive connection
        /// waiting for good, and its next read would time out. With few clients responders
        /// start in place; with more than `inPlaceConnections`, on Swift's pool.
        @Test(arguments: [4, ServerCore.inPlaceConnections + 4])
        func everyAnswerIsDeliveredWhetherItComesBeforeOrAfterTheSuspension(clients: Int) async throws {
            let handled = Atomic(0)
            var router = Router()
            router.on(.get, "/now/:n") { request in
                handled.add(1, ordering: .relaxed)
                return .text("now " + (request.parameters["n"] ?? ""))
            }
            router.on(.get, "/elsewhere/:n") { request in
                // Resumed from another thread at once: often before this thread suspends.
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume() }
                }
                handled.add(1, ordering: .relaxed)
                return .text("elsewhere " + (request.parameters["n"] ?? ""))
            }
            router.on(.get, "/later/:n") { request in
                try await Task.sleep(for: .milliseconds(1))
                handled.add(1, ordering: .relaxed)
                return .text("later " + (request.parameters["n"] ?? ""))
            }
            let kinds = ["now", "elsewhere", "later"]
            let rounds = 120
            try await withServer(router) { server in
                let port = server.port
                let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
                    for client in 0..<clients {
                        group.addTask {
                            try await offPool {
                                let connection = try RawConnection(port: port, timeout: 20)
                                var mismatches: [String] = []
                                for round in 0..<rounds {
                                    let kind = kinds[(client + round) % kinds.count]
                                    let number = "\(client)-\(round)"
                                    let response = try connection.exchange("GET /\(kind)/\(number) HTTP/1.1\r\nHost: t\r\n\r\n")
                                    if response.status != 200 || response.text != "\(kind) \(number)" {
                                        mismatches.append("\(kind) \(number): \(response.status) \(response.text)")
                                    }
                                }
                                return mismatches
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
                #expect(handled.load(ordering: .relaxed) == clients * rounds)
            }
        }
    }
}

import Foundation
import Synchronization
import Testing
@testable import SlateHTTP

extension OverTheWire {
    /// A body of `ServerCore.sharedBodyBytes` or more is handed to the library in place:
    /// it arrives whole and exact, as often as asked, and is let go once the library is
    /// done with it — after the last byte, and when the client leaves halfway.
    @Suite struct LargeBodyTests {
        /// Counts the bodies made and the bodies let go.
        final class Bodies: Sendable {
            let made = Atomic<Int>(0)
            let released = Atomic<Int>(0)

            /// `count` bytes of a pattern that shows any shift or overwrite, freed through
            /// a deallocator that counts.
            func body(_ count: Int) -> Data {
                let pointer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
                for index in 0..<count { pointer.storeBytes(of: UInt8(truncatingIfNeeded: index % 251), toByteOffset: index, as: UInt8.self) }
                made.add(1, ordering: .relaxed)
                return Data(bytesNoCopy: pointer, count: count, deallocator: .custom { [self] pointer, _ in
                    pointer.deallocate()
                    self.released.add(1, ordering: .relaxed)
                })
            }

            static func expected(_ count: Int) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) }) }

            /// Waits until every body made was let go, or the deadline passed.
            func allReleased(within seconds: Double) async -> Bool {
                let deadline = ContinuousClock.now + .seconds(seconds)
                while ContinuousClock.now < deadline {
                    if released.load(ordering: .relaxed) == made.load(ordering: .relaxed) { return true }
                    try? await Task.sleep(for: .milliseconds(10))
                }
                return released.load(ordering: .relaxed) == made.load(ordering: .relaxed)
            }
        }

        static func router(_ bodies: Bodies) -> Router {
            var router = Router()
            router.on(.get, "/large/:size") { request in
                Response(headers: ["Content-Type": "application/octet-stream"], body: .data(bodies.body(Int(request.parameters["size"]!)!)))
            }
            return router
        }

        @Test func aLargeBodyArrivesExactEveryTimeAndIsLetGoAfterItsLastByte() async throws {
            let bodies = Bodies()
            let sizes = [ServerCore.sharedBodyBytes, ServerCore.sharedBodyBytes + 1, 1 << 20, 3 << 20 + 17]
            try await withServer(Self.router(bodies)) { server in
                let port = server.port
                let answers = try await offPool {
                    let connection = try RawConnection(port: port)
                    var answers: [RawResponse] = []
                    for _ in 0..<3 {
                        for size in sizes { answers.append(try connection.exchange("GET /large/\(size) HTTP/1.1\r\nHost: t\r\n\r\n")) }
                    }
                    answers.append(try connection.exchange("HEAD /large/\(1 << 20) HTTP/1.1\r\nHost: t\r\n\r\n", hasBody: false))
                    return answers
                }
                for (index, answer) in answers.dropLast().enumerated() {
                    let size = sizes[index % sizes.count]
                    #expect(answer.status == 200 && answer.body == Bodies.expected(size), "body \(index) of \(size) bytes")
                }
                #expect(answers.last?.headers["Content-Length"] == "\(1 << 20)" && answers.last?.body.isEmpty == true)
                #expect(await bodies.allReleased(within: 10))
            }
        }

        @Test func aLargeBodyIsLetGoWhenItsClientLeavesHalfway() async throws {
            let bodies = Bodies()
            try await withServer(Self.router(bodies)) { server in
                let port = server.port
                try await offPool {
                    for _ in 0..<5 {
                        let connection = try RawConnection(port: port)
                        try connection.send("GET /large/\(8 << 20) HTTP/1.1\r\nHost: t\r\n\r\n")
                        _ = try connection.readHead()
                        _ = try connection.readExactly(4096)
                    }   // each connection closes here, most of its body unsent
                }
                #expect(await bodies.allReleased(within: 10), "\(bodies.released.load(ordering: .relaxed)) of \(bodies.made.load(ordering: .relaxed))")
                // The server goes on: a whole body still arrives exact.
                let whole = try await offPool { try RawConnection(port: port).exchange("GET /large/\(1 << 20) HTTP/1.1\r\nHost: t\r\n\r\n") }
                #expect(whole.body == Bodies.expected(1 << 20))
            }
        }
    }
}

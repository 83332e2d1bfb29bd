import Foundation
import Testing
@testable import SlateHTTP

extension OverTheWire {
    /// Requests whose framing two parsers could read differently (request smuggling) or
    /// that lack what HTTP/1.1 requires are refused with 400 and the connection closed,
    /// before any handler runs. Exact bytes over a real socket.
    @Suite struct FramingTests {
        static func router(handled: LogLines) -> Router {
            var router = Router()
            router.on(.post, "/echo") { request in
                handled.writer("POST /echo")
                return Response(headers: ["Content-Type": "application/octet-stream"], body: .data(request.body))
            }
            router.on(.get, "/secret") { _ in
                handled.writer("GET /secret")
                return .text("smuggled")
            }
            return router
        }

        /// Sends `request` on a fresh connection; the status, and whether anything followed.
        func send(_ request: String, port: Int) async throws -> (status: Int, closed: Bool, body: String) {
            try await offPool {
                let connection = try RawConnection(port: port)
                try connection.send(request)
                let response = try connection.readResponse()
                let closed = response.headers["Connection"]?.lowercased() == "close" || (try? connection.isClosedByServer()) == true
                return (response.status, closed, response.text)
            }
        }

        @Test func contentLengthWithTransferEncodingIsRefused() async throws {
            let handled = LogLines()
            try await withServer(Self.router(handled: handled)) { server in
                let smuggled = "GET /secret HTTP/1.1\r\nHost: t\r\n\r\n"
                let chunked = "0\r\n\r\n" + smuggled
                let answer = try await send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: \(chunked.utf8.count)\r\n"
                                            + "Transfer-Encoding: chunked\r\n\r\n" + chunked, port: server.port)
                #expect(answer.status == 400 && answer.closed)
                #expect(answer.body.contains("Transfer-Encoding"))
                #expect(handled.all.isEmpty, "neither the request nor the smuggled one reached a handler: \(handled.all)")
            }
        }

        @Test func twoDifferentContentLengthsAreRefused() async throws {
            let handled = LogLines()
            try await withServer(Self.router(handled: handled)) { server in
                let answer = try await send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 12\r\n\r\nhello world!", port: server.port)
                #expect(answer.status == 400 && answer.closed)
                #expect(answer.body.contains("Content-Length"))
                #expect(handled.all.isEmpty)
            }
        }

        @Test func aSpaceBeforeTheColonIsRefused() async throws {
            let handled = LogLines()
            try await withServer(Self.router(handled: handled)) { server in
                let answer = try await send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length : 5\r\n\r\nhello", port: server.port)
                #expect(answer.status == 400 && answer.closed)
                #expect(handled.all.isEmpty)
            }
        }

        @Test func http11WithoutHostIsRefusedButHttp10IsServed() async throws {
            let handled = LogLines()
            try await withServer(Self.router(handled: handled)) { server in
                let missing = try await send("GET /secret HTTP/1.1\r\n\r\n", port: server.port)
                #expect(missing.status == 400 && missing.closed)
                #expect(handled.all.isEmpty)
                let old = try await send("GET /secret HTTP/1.0\r\n\r\n", port: server.port)
                #expect(old.status == 200 && old.body == "smuggled")
            }
        }

        @Test func aWellFramedRequestIsStillServed() async throws {
            let handled = LogLines()
            try await withServer(Self.router(handled: handled)) { server in
                let answer = try await send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello", port: server.port)
                #expect(answer.status == 200 && answer.body == "hello")
            }
        }
    }
}

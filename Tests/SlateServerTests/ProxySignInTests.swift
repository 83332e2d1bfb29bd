import Foundation
import SlateCore
import SlateHTTP
import SlateStore
import TestDatabases
import Testing
@testable import SlateServer

#if canImport(Glibc)
import Glibc
#endif

/// Sign-in limits behind a trusted reverse proxy, over a real socket: every client arrives
/// from the proxy's address, and the limits must still tell them apart.
@Suite struct ProxySignInTests {
    /// One request on its own connection (`Connection: close`); the status code.
    static func post(port: Int, path: String, body: String, forwardedFor: String) throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        // Generous: in a full test run the password checks of other suites queue before these.
        var time = timeval(tv_sec: 90, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return -1 }
        let request = "POST \(path) HTTP/1.1\r\nHost: slate\r\nConnection: close\r\nContent-Type: application/json\r\n"
            + "X-Forwarded-For: \(forwardedFor)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        _ = request.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var received = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        let statusLine = String(decoding: received.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        return statusLine.count > 1 ? Int(statusLine[1]) ?? -1 : -1
    }

    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    @Test func wrongPasswordsFromOneClientBehindTheProxyDoNotLockOutAnother() async throws {
        let container = try Slate.openContainer(path: TestDatabase.freshStore())
        let password = try await offPool { [container] in try AccountAdministration(container: container, strength: .minimal).addUser(named: "ana", password: "correct horse battery") }
        let service = SlateService(container: container, webRoot: nil, secureCookies: true, strictTransportSecurity: true, logLevel: .off)
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.trustedProxies = TrustedProxies([try #require(AddressRange("127.0.0.1"))])
        let server = HTTPServer(configuration: configuration, responder: service.router)
        try server.start()
        let port = server.port
        let statuses = try await Self.onThread {
            var statuses: [Int] = []
            for _ in 0..<6 {
                statuses.append(try Self.post(port: port, path: "/api/v1/session", body: #"{"name":"ana","password":"guess"}"#,
                                              forwardedFor: "198.51.100.7"))
            }
            statuses.append(try Self.post(port: port, path: "/api/v1/session", body: #"{"name":"ana","password":"\#(password)"}"#,
                                          forwardedFor: "1.2.3.4, 203.0.113.9"))
            return statuses
        }
        await server.shutdown()
        #expect(Array(statuses.prefix(5)) == [401, 401, 401, 401, 401])
        #expect(statuses[5] == 429, "the guessing client is limited")
        #expect(statuses[6] == 200, "the owner, another client behind the same proxy, is not")
    }
}

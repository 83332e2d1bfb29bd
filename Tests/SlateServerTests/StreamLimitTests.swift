import Foundation
import SlateCore
import SlateHTTP
import SlateStore
import TestDatabases
import Testing
@testable import SlateServer

/// Live event streams: capped per account (not per address), and ended when the
/// credential that opened them stops working.
@Suite struct StreamLimitTests {
    let container = try! Slate.openContainer(path: TestDatabase.freshStore())

    func request(_ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], json: [String: Any]? = nil) throws -> Request {
        var all = headers
        var body = Data()
        if let json {
            body = try JSONSerialization.data(withJSONObject: json)
            all["Content-Type"] = "application/json"
        }
        return Request(method: method, target: target, headers: all, body: body)
    }

    /// Reads a stream to its end; true if it ended within `limit`.
    func ends(_ response: Response, within limit: Duration) async throws -> Bool {
        guard let chunks = response.body.chunks else { return false }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { for await _ in chunks {}; return true }
            group.addTask { try? await Task.sleep(for: limit); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test func streamsAreCappedPerAccountNotPerAddress() async throws {
        let admin = AccountAdministration(container: container, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ana") }
        _ = try await offPool { [admin] in try admin.addUser(named: "ben") }
        let ana = try admin.createToken(for: "ana", label: "tabs")
        let ben = try admin.createToken(for: "ben", label: "tabs")
        let api = SlateAPI(container: container, secureCookies: false)
        var open: [Response] = []
        for _ in 0..<EventsController.streamsPerAccount {
            let response = try await api.router.respond(to: try request("/api/v1/events", headers: ["Authorization": "Bearer \(ana)"]))
            #expect(response.status.code == 200)
            open.append(response)
        }
        let refused = try await api.router.respond(to: try request("/api/v1/events", headers: ["Authorization": "Bearer \(ana)"]))
        #expect(refused.status.code == 429 && refused.headers["Retry-After"] != nil)
        let other = try await api.router.respond(to: try request("/api/v1/events", headers: ["Authorization": "Bearer \(ben)"]))
        #expect(other.status.code == 200, "another account behind the same address is not affected")
        #expect(try await api.router.respond(to: try request("/api/v1/tasks", headers: ["Authorization": "Bearer \(ana)"])).status.code == 200,
                "other requests still work")

        // A tab closes (its reader stops): its stream ends and its place is free again.
        let closed = open.removeLast()
        let reader = Task { if let chunks = closed.body.chunks { for await _ in chunks {} } }
        reader.cancel()
        // Generous: on a loaded machine the stream's tasks may wait long for a thread.
        let deadline = ContinuousClock.now + .seconds(60)
        var again = 429
        while again == 429, ContinuousClock.now < deadline {
            again = try await api.router.respond(to: try request("/api/v1/events", headers: ["Authorization": "Bearer \(ana)"])).status.code
            if again == 429 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(again == 200)
    }

    @Test func theCapIsAServeOption() async throws {
        let admin = AccountAdministration(container: container, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ana") }
        let ana = try admin.createToken(for: "ana", label: "tabs")
        let api = SlateAPI(container: container, secureCookies: false, streamsPerAccount: 3)
        var open: [Response] = []
        for _ in 0..<3 {
            open.append(try await api.router.respond(to: try request("/api/v1/events", headers: ["Authorization": "Bearer \(ana)"])))
        }
        #expect(open.allSatisfy { $0.status.code == 200 })
        let refused = try await api.router.respond(to: try request("/api/v1/events", headers: ["Authorization": "Bearer \(ana)"]))
        #expect(refused.status.code == 429)
    }

    @Test func aPasswordChangeEndsTheSessionsAndTheirStreams() async throws {
        let admin = AccountAdministration(container: container, strength: .minimal)
        let password = try await offPool { [admin] in try admin.addUser(named: "ana", password: "correct horse battery") }
        let token = try admin.createToken(for: "ana", label: "script")
        let api = SlateAPI(container: container, secureCookies: false)
        let signIn = try await api.router.respond(to: try request("/api/v1/session", method: .post, json: ["name": "ana", "password": password]))
        let cookie = String(try #require(signIn.headers["Set-Cookie"]).prefix { $0 != ";" })
        let sessionStream = try await api.router.respond(to: try request("/api/v1/events", headers: ["Cookie": cookie]))
        let tokenStream = try await api.router.respond(to: try request("/api/v1/events", headers: ["Authorization": "Bearer \(token)"]))
        #expect(sessionStream.status.code == 200 && tokenStream.status.code == 200)

        _ = try await offPool { [admin] in try admin.changePassword(of: "ana", to: "another good password") }
        #expect(try await ends(sessionStream, within: .seconds(60)), "the session's stream ends")
        #expect(try await api.router.respond(to: try request("/api/v1/tasks", headers: ["Cookie": cookie])).status.code == 401)
        #expect(!(try await ends(tokenStream, within: .milliseconds(200))), "a token is not a session: its stream goes on")
    }

    @Test func revokingATokenEndsItsStream() async throws {
        let admin = AccountAdministration(container: container, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ana") }
        let token = try admin.createToken(for: "ana", label: "script")
        let api = SlateAPI(container: container, secureCookies: false)
        let stream = try await api.router.respond(to: try request("/api/v1/events", headers: ["Authorization": "Bearer \(token)"]))
        #expect(stream.status.code == 200)
        try AccountDirectory(container: container).removeSecret(Secrets.digest(token), kind: .token)
        #expect(try await ends(stream, within: .seconds(60)))
    }
}

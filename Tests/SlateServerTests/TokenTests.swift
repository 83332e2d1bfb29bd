import Foundation
import SlateCore
import SlateHTTP
import SlateStore
import Synchronization
import TestDatabases
import Testing
@testable import SlateServer

/// `/api/v1/tokens`: list, create (with an expiry), revoke, last use — each scoped to the
/// signed-in account.
@Suite struct TokenTests {
    let container = try! Slate.openContainer(path: TestDatabase.freshStore())
    let clock = TestClock()

    final class TestClock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
        var read: @Sendable () -> Date { { self.now.withLock { $0 } } }
    }

    /// `method target` to `api` with `token` as its bearer credential: the status and the JSON body.
    static func send(_ api: SlateAPI, _ method: HTTPMethod, _ target: String, token: String, json: [String: Any]? = nil) async throws -> (Int, Any?) {
        var headers: HTTPHeaders = ["Authorization": "Bearer \(token)"]
        var body = Data()
        if let json {
            body = try JSONSerialization.data(withJSONObject: json)
            headers["Content-Type"] = "application/json"
        }
        let response = try await api.router.respond(to: Request(method: method, target: target, headers: headers, body: body))
        return (response.status.code, response.bodyData.flatMap { try? JSONSerialization.jsonObject(with: $0) })
    }

    func tokens(_ api: SlateAPI, _ token: String) async throws -> [[String: Any]] {
        let (status, body) = try await Self.send(api, .get, "/api/v1/tokens", token: token)
        #expect(status == 200)
        return (body as? [String: Any])?["tokens"] as? [[String: Any]] ?? []
    }

    @Test func tokensAreListedCreatedWithAnExpiryAndRevoked() async throws {
        let admin = AccountAdministration(container: container, clock: clock.read, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ana") }
        _ = try await offPool { [admin] in try admin.addUser(named: "ben") }
        let first = try admin.createToken(for: "ana", label: "laptop")
        let bens = try admin.createToken(for: "ben", label: "ben's")
        let api = SlateAPI(container: container, secureCookies: false, clock: clock.read)

        let listed = try await tokens(api, first)
        #expect(listed.count == 1 && listed[0]["label"] as? String == "laptop")
        #expect(listed[0]["token"] == nil && listed[0]["secretHash"] == nil, "never the secret")
        #expect(listed[0]["lastUsed"] as? String == Timestamp.format(clock.read()), "the listing request itself used it")

        let (created, body) = try await Self.send(api, .post, "/api/v1/tokens", token: first, json: ["label": "phone", "expiresIn": "30d"])
        let record = try #require(body as? [String: Any])
        #expect(created == 201)
        let phone = try #require(record["token"] as? String)
        #expect(record["expires"] as? String == Timestamp.format(clock.read().addingTimeInterval(30 * 86_400)))
        #expect(try await tokens(api, phone).count == 2)
        #expect(try await tokens(api, bens).count == 1, "each account sees its own")

        clock.advance(31 * 86_400)
        #expect(try await Self.send(api, .get, "/api/v1/tasks", token: phone).0 == 401, "expired")

        let id = try #require(record["id"] as? String)
        #expect(try await Self.send(api, .delete, "/api/v1/tokens/\(id)", token: bens).0 == 404, "another account's token is not found")
        #expect(try await Self.send(api, .delete, "/api/v1/tokens/\(id)", token: first).0 == 204)
        #expect(try await tokens(api, first).count == 1)
    }

    @Test func badLifetimesAndLabelsNameTheField() async throws {
        let admin = AccountAdministration(container: container, clock: clock.read, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ana") }
        let token = try admin.createToken(for: "ana", label: "laptop")
        let api = SlateAPI(container: container, secureCookies: false, clock: clock.read)
        for bad in ["30", "forever", "-1d", "11y", "3.5d", ""] {
            let (status, body) = try await Self.send(api, .post, "/api/v1/tokens", token: token, json: ["expiresIn": bad])
            #expect(status == 422 && ((body as? [String: Any])?["error"] as? [String: Any])?["field"] as? String == "expiresIn", "\(bad)")
        }
        let (status, body) = try await Self.send(api, .post, "/api/v1/tokens", token: token, json: ["label": String(repeating: "x", count: 101)])
        #expect(status == 422 && ((body as? [String: Any])?["error"] as? [String: Any])?["field"] as? String == "label")
        #expect(try await tokens(api, token).count == 1, "nothing was created")
    }

    @Test func lastUseIsWrittenAtMostOnceAnHour() async throws {
        let admin = AccountAdministration(container: container, clock: clock.read, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ana") }
        let token = try admin.createToken(for: "ana", label: "laptop")
        let api = SlateAPI(container: container, secureCookies: false, clock: clock.read)
        let start = clock.read()
        _ = try await Self.send(api, .get, "/api/v1/tasks", token: token)
        clock.advance(600)
        _ = try await Self.send(api, .get, "/api/v1/tasks", token: token)
        #expect(try admin.tokens(of: "ana").first?.lastUsed == start)
        clock.advance(3600)
        _ = try await Self.send(api, .get, "/api/v1/tasks", token: token)
        #expect(try admin.tokens(of: "ana").first?.lastUsed == clock.read())
    }

    /// The digest stored for a secret is its SHA-256 in lower-case hex (what every stored
    /// token and app password is looked up by): the FIPS 180-2 examples.
    @Test func aSecretsDigestIsItsSHA256InLowerCaseHex() {
        #expect(Secrets.digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Secrets.digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}

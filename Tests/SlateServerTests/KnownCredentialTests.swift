import Foundation
import SlateCore
import SlateHTTP
import SlateStore
import Synchronization
import TestDatabases
import Testing
@testable import SlateServer

/// A read of one task by a credential checked before runs on the request's own thread
/// (`Authenticator.knownAccountID`): it must still see a revocation at once, still write a
/// token's last use once an hour, and never vouch for a request it has not checked.
@Suite final class KnownCredentialTests {
    /// A file in a folder of its own (or the test database's fresh store): in memory a read
    /// shares the writer's connection, so the server never reads on the request's thread.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-known-\(UUID().uuidString)")
    let container: ModelContainer
    let clock = TokenTests.TestClock()

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        container = try Slate.openContainer(path: TestDatabase.freshStore() ?? folder.appendingPathComponent("slate.sqlite").path)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func request(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders) -> Request {
        Request(method: method, target: target, headers: headers, body: Data())
    }

    @Test func onlyASecretLookedUpBeforeAndWithNothingToWriteIsKnown() async throws {
        let admin = AccountAdministration(container: container, clock: clock.read, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ana") }
        let token = try admin.createToken(for: "ana", label: "laptop")
        let directory = AccountDirectory(container: container)
        let ana = try #require(try directory.account(named: "ana"))
        let authenticator = Authenticator(directory: directory, clock: clock.read)
        let bearer = request(.get, "/api/v1/tasks", headers: ["Authorization": "Bearer \(token)"])

        #expect(try authenticator.knownAccountID(for: bearer) == nil, "never looked up")
        #expect(try authenticator.accountID(for: bearer) == ana.id)
        // That first use was written: a commit to credentials, after which the token is looked up once more.
        #expect(try authenticator.knownAccountID(for: bearer) == nil)
        #expect(try authenticator.accountID(for: bearer) == ana.id)
        #expect(try authenticator.knownAccountID(for: bearer) == ana.id)
        #expect(try authenticator.knownAccountID(for: request(.get, "/", headers: ["Authorization": "Bearer \(token)x"])) == nil)
        #expect(try authenticator.knownAccountID(for: request(.get, "/", headers: ["Authorization": "Basic \(token)"])) == nil)

        clock.advance(3601)
        #expect(try authenticator.knownAccountID(for: bearer) == nil, "its hourly use is due: left to accountID(for:), which writes it")
        #expect(try authenticator.accountID(for: bearer) == ana.id)
        #expect(try authenticator.accountID(for: bearer) == ana.id)
        #expect(try authenticator.knownAccountID(for: bearer) == ana.id)

        let id = try #require(try directory.tokens(of: ana.id).first?.id)
        #expect(try directory.revokeToken(id, of: ana.id))
        #expect(try authenticator.knownAccountID(for: bearer) == nil, "a revocation is a commit: the stamp moved")
        #expect(throws: HTTPError.self) { try authenticator.accountID(for: bearer) }
    }

    @Test func aSessionIsKnownForReadsOnly() async throws {
        let admin = AccountAdministration(container: container, clock: clock.read, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ana") }
        let directory = AccountDirectory(container: container)
        let ana = try #require(try directory.account(named: "ana"))
        let secret = "session-secret-for-the-test"
        _ = try directory.addSecret(.session, digest: Secrets.digest(secret), for: ana.id, label: "web", now: clock.read(),
                                expires: clock.read().addingTimeInterval(86_400))
        let authenticator = Authenticator(directory: directory, clock: clock.read)
        let cookie: HTTPHeaders = ["Cookie": "\(Authenticator.cookieName)=\(secret)"]
        #expect(try authenticator.accountID(for: request(.get, "/api/v1/tasks", headers: cookie)) == ana.id)
        #expect(try authenticator.knownAccountID(for: request(.get, "/api/v1/tasks", headers: cookie)) == ana.id)
        #expect(try authenticator.knownAccountID(for: request(.delete, "/api/v1/tasks/x", headers: cookie)) == nil,
                "a change from the web app needs its CSRF header, which only accountID(for:) checks")
        clock.advance(86_401)
        #expect(try authenticator.knownAccountID(for: request(.get, "/api/v1/tasks", headers: cookie)) == nil, "expired")
    }

    @Test func readingATaskOrAPageStillRecordsTheTokensUseAndSeesItsRevocation() async throws {
        let admin = AccountAdministration(container: container, clock: clock.read, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ana") }
        let token = try admin.createToken(for: "ana", label: "laptop")
        let other = try admin.createToken(for: "ana", label: "phone")
        let api = SlateAPI(container: container, secureCookies: false, clock: clock.read)
        func send(_ method: HTTPMethod, _ target: String, _ token: String, json: [String: Any]? = nil) async throws -> (Int, [String: Any]?) {
            let (status, body) = try await TokenTests.send(api, method, target, token: token, json: json)
            return (status, body as? [String: Any])
        }
        let (created, task) = try await send(.post, "/api/v1/tasks", other, json: ["title": "Call the printer"])
        #expect(created == 201)
        let path = "/api/v1/tasks/" + (try #require(task?["id"] as? String))
        let start = clock.read()
        for _ in 0..<3 {
            let (status, body) = try await send(.get, path, token)
            #expect(status == 200 && body?["title"] as? String == "Call the printer")
        }
        for _ in 0..<3 {
            let (status, body) = try await send(.get, "/api/v1/tasks?limit=10", token)
            let titles = (body?["tasks"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
            #expect(status == 200 && titles == ["Call the printer"] && body?["total"] as? Int == 1)
        }
        #expect(try admin.tokens(of: "ana").first { $0.label == "laptop" }?.lastUsed == start)
        clock.advance(3600)
        #expect(try await send(.get, path, token).0 == 200)
        #expect(try admin.tokens(of: "ana").first { $0.label == "laptop" }?.lastUsed == clock.read(), "written again after an hour")

        let laptop = try #require(try admin.tokens(of: "ana").first { $0.label == "laptop" })
        #expect(try await send(.delete, "/api/v1/tokens/\(laptop.id.uuidString.lowercased())", other).0 == 204)
        #expect(try await send(.get, path, token).0 == 401, "revoked: refused at once")
        #expect(try await send(.get, "/api/v1/tasks?limit=10", token).0 == 401, "a page too")
        #expect(try await send(.get, path, other).0 == 200)
    }
}

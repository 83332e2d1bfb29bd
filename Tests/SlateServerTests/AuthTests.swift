import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import SlateStore
import TestDatabases
import Testing

/// Sign-in, sessions, CSRF, tokens and rate limits, through the real authenticator.
@Suite struct AuthTests {
    let container = try! Slate.openContainer(path: TestDatabase.freshStore())

    func send(_ api: SlateAPI, _ method: HTTPMethod, _ target: String, json: [String: Any]? = nil,
              headers: [String: String] = [:], address: String = "127.0.0.1") async throws -> (Int, HTTPHeaders, [String: Any]) {
        var all = HTTPHeaders()
        var body = Data()
        if let json {
            body = try JSONSerialization.data(withJSONObject: json)
            all["Content-Type"] = "application/json"
        }
        for (name, value) in headers { all[name] = value }
        var request = Request(method: method, target: target, headers: all, body: body)
        request.remoteAddress = address
        let response = try await api.router.respond(to: request)
        let object = (try? JSONSerialization.jsonObject(with: response.bodyData ?? Data()) as? [String: Any]) ?? [:]
        return (response.status.code, response.headers, object)
    }

    @Test func signInGivesAnHttpOnlyStrictCookieAndChangesNeedTheCustomHeader() async throws {
        let admin = AccountAdministration(container: container, strength: .minimal)
        let password = try await offPool { [admin] in try admin.addUser(named: "ana", password: "correct horse battery") }
        #expect(password == "correct horse battery")
        let api = SlateAPI(container: container, secureCookies: true)

        let (status, headers, body) = try await send(api, .post, "/api/v1/session", json: ["name": "ANA", "password": password])
        #expect(status == 200 && body["account"] as? String == "ana")
        let cookie = try #require(headers["Set-Cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Secure"))
        let session = String(cookie.prefix { $0 != ";" })

        #expect(try await send(api, .get, "/api/v1/tasks", headers: ["Cookie": session]).0 == 200)
        let forged = try await send(api, .post, "/api/v1/tasks", json: ["title": "x"], headers: ["Cookie": session])
        #expect(forged.0 == 403 && (forged.2["error"] as? [String: Any])?["code"] as? String == "csrf")
        #expect(try await send(api, .post, "/api/v1/tasks", json: ["title": "x"], headers: ["Cookie": session, "X-Requested-With": "slate"]).0 == 201)

        #expect(try await send(api, .delete, "/api/v1/session", headers: ["Cookie": session, "X-Requested-With": "slate"]).0 == 204)
        let after = try await send(api, .get, "/api/v1/tasks", headers: ["Cookie": session])
        #expect(after.0 == 401 && after.1["WWW-Authenticate"] != nil)
    }

    /// `GET /session` tells a signed-out browser so with 200, not a 401 its console logs
    /// at every load; a bearer token that is not valid is still refused.
    @Test func theCurrentSessionAnswersSignedOutWithoutAnError() async throws {
        let admin = AccountAdministration(container: container, strength: .minimal)
        let password = try await offPool { [admin] in try admin.addUser(named: "cleo", password: "correct horse battery") }
        let api = SlateAPI(container: container, secureCookies: false)
        let nobody = try await send(api, .get, "/api/v1/session")
        #expect(nobody.0 == 200 && nobody.2["signedIn"] as? Bool == false && nobody.2["account"] == nil)
        let stale = try await send(api, .get, "/api/v1/session", headers: ["Cookie": "slate_session=not-a-session"])
        #expect(stale.0 == 200 && stale.2["signedIn"] as? Bool == false)
        #expect(try await send(api, .get, "/api/v1/session", headers: ["Authorization": "Bearer not-a-token"]).0 == 401)
        let signedIn = try await send(api, .post, "/api/v1/session", json: ["name": "cleo", "password": password])
        let session = String(try #require(signedIn.1["Set-Cookie"]).prefix { $0 != ";" })
        let current = try await send(api, .get, "/api/v1/session", headers: ["Cookie": session])
        #expect(current.0 == 200 && current.2["signedIn"] as? Bool == true && current.2["account"] as? String == "cleo")
    }

    @Test func bearerTokensAreStoredHashedAndWorkWithoutCSRF() async throws {
        let admin = AccountAdministration(container: container, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ci") }
        let token = try admin.createToken(for: "ci", label: "pipeline")
        let api = SlateAPI(container: container, secureCookies: false)
        #expect(try await send(api, .post, "/api/v1/tasks", json: ["title": "From CI"], headers: ["Authorization": "Bearer \(token)"]).0 == 201)
        #expect(try await send(api, .get, "/api/v1/tasks", headers: ["Authorization": "Bearer wrong"]).0 == 401)
        let stored = try ModelContext(container).fetch(FetchDescriptor<Credential>()).filter { $0.kind == .token }
        #expect(stored.count == 1 && stored.first?.secretHash == Secrets.digest(token) && stored.first?.secretHash != token,
                "only a digest is stored")
    }

    /// Tokens are remembered between requests; forgetting one in the store must still end it
    /// at once, whether this server or another process (the CLI) does it.
    @Test func aRemovedTokenStopsWorkingAtOnceEvenFromAnotherProcess() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("slate.sqlite").path
        let server = try Slate.openContainer(path: path)
        let admin = AccountAdministration(container: server, strength: .minimal)
        _ = try await offPool { [admin] in try admin.addUser(named: "ci") }
        let api = SlateAPI(container: server, secureCookies: false)

        let mine = try admin.createToken(for: "ci", label: "here")
        #expect(try await send(api, .get, "/api/v1/tasks", headers: ["Authorization": "Bearer \(mine)"]).0 == 200)
        #expect(try await send(api, .get, "/api/v1/tasks", headers: ["Authorization": "Bearer \(mine)"]).0 == 200)
        try AccountDirectory(container: server).removeSecret(Secrets.digest(mine), kind: .token)
        #expect(try await send(api, .get, "/api/v1/tasks", headers: ["Authorization": "Bearer \(mine)"]).0 == 401)

        let theirs = try admin.createToken(for: "ci", label: "there")
        #expect(try await send(api, .get, "/api/v1/tasks", headers: ["Authorization": "Bearer \(theirs)"]).0 == 200)
        #expect(try await send(api, .get, "/api/v1/tasks", headers: ["Authorization": "Bearer \(theirs)"]).0 == 200)
        let cli = try Slate.openContainer(path: path)
        try AccountDirectory(container: cli).removeSecret(Secrets.digest(theirs), kind: .token)
        // No watcher runs here: the store's unreported commit alone keeps the server from trusting what it remembers.
        #expect(try await send(api, .get, "/api/v1/tasks", headers: ["Authorization": "Bearer \(theirs)"]).0 == 401)
        _ = try server.publishExternalChanges()
        #expect(try await send(api, .get, "/api/v1/tasks", headers: ["Authorization": "Bearer \(theirs)"]).0 == 401)
    }

    @Test func wrongPasswordsAreRefusedThenRateLimitedPerAccountAndAddress() async throws {
        let admin = AccountAdministration(container: container, strength: .minimal)
        let password = try await offPool { [admin] in try admin.addUser(named: "ben") }
        let api = SlateAPI(container: container, secureCookies: false)
        for _ in 0..<5 {
            #expect(try await send(api, .post, "/api/v1/session", json: ["name": "ben", "password": "guess"]).0 == 401)
        }
        let limited = try await send(api, .post, "/api/v1/session", json: ["name": "ben", "password": password])
        #expect(limited.0 == 429 && limited.1["Retry-After"] != nil)
        #expect(try await send(api, .post, "/api/v1/session", json: ["name": "ben", "password": password], address: "10.0.0.2").0 == 200,
                "another address is not limited")
        #expect(try await send(api, .post, "/api/v1/session", json: ["name": "nobody", "password": "x"]).0 == 401)
    }

    @Test func theFirstStartMakesOneAccountWithAGeneratedPasswordAndNoDefault() throws {
        let admin = AccountAdministration(container: container, strength: .minimal)
        let first = try #require(try admin.firstStartAccount())
        #expect(first.name == "admin" && first.password.count >= 20)
        #expect(try admin.firstStartAccount() == nil, "only once")
        #expect(throws: SlateError.self) { _ = try admin.addUser(named: "short", password: "123") }
    }
}

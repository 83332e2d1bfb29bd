import Foundation
import SlateCore
import SlateDAV
import SlateHTTP
import SlateServer
import SlateStore
import TestDatabases
import Testing

@Suite("CalDAV sign-in: HTTP Basic with a password or an app password")
struct BasicSignInTests {
    let container: ModelContainer
    let router: Router
    let password: String
    let token: String

    init() throws {
        container = try Slate.openContainer(path: TestDatabase.freshStore())
        let administration = AccountAdministration(container: container)
        password = try administration.addUser(named: "ana", password: "a long enough password")
        _ = try administration.addUser(named: "ben")
        token = try administration.createToken(for: "ana", label: "phone")
        let basic = BasicAuthenticator(container: container)
        // As `slate serve` wires it: credentials checked before are recognised where the work runs.
        router = CalDAVService(directory: AccountDirectory(container: container), authenticate: { try await basic.accountID(for: $0) },
                               identify: { try basic.rememberedAccountID(for: $0) }, logLevel: .off).router
    }

    func propfind(_ user: String, _ secret: String, address: String = "127.0.0.1") async throws -> Response {
        var request = Request(method: "PROPFIND", target: "/dav/calendars/ana/", headers: [
            "Depth": "0", "Authorization": "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString(),
        ])
        request.remoteAddress = address
        return try await router.respond(to: request)
    }

    @Test("The account password and an app password both sign in; the account's home answers")
    func bothSecretsWork() async throws {
        #expect(try await propfind("ana", password).status.code == 207)
        #expect(try await propfind("ana", token).status.code == 207)
        #expect(try await propfind("ANA", token).status.code == 207)
    }

    @Test("A wrong password, another account's app password, or none: 401 asking for Basic")
    func refused() async throws {
        let wrong = try await propfind("ana", "not the password")
        #expect(wrong.status.code == 401)
        #expect(wrong.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
        #expect(try await propfind("ben", token).status.code == 401)
        let none = try await router.respond(to: Request(method: "PROPFIND", target: "/dav/", headers: ["Depth": "0"]))
        #expect(none.status.code == 401)
    }

    @Test("A revoked app password stops working at once, even after it was accepted")
    func revocation() async throws {
        #expect(try await propfind("ana", token).status.code == 207)
        let directory = AccountDirectory(container: container)
        let account = try #require(try directory.account(named: "ana"))
        let credential = try #require(try directory.tokens(of: account.id).first)
        #expect(try directory.revokeToken(credential.id, of: account.id))
        #expect(try await propfind("ana", token).status.code == 401)
    }

    @Test("A read answered where the request arrived (a multiget, a GET) still refuses a revoked app password at once")
    func revocationOfShortReads() async throws {
        let auth = "Basic " + Data("ana:\(token)".utf8).base64EncodedString()
        let put = Request(method: "PUT", target: "/dav/calendars/ana/inbox/a.ics", headers: ["Authorization": auth, "Content-Type": "text/calendar"],
                          body: Data(DAVHarness.todo(uid: "a", summary: "Kept").utf8))
        #expect(try await router.respond(to: put).status.code == 201)
        let multiget = Data(("<?xml version=\"1.0\"?><c:calendar-multiget xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
            + "<d:prop><d:getetag/></d:prop><d:href>/dav/calendars/ana/inbox/a.ics</d:href></c:calendar-multiget>").utf8)
        let reads = [Request(method: "GET", target: "/dav/calendars/ana/inbox/a.ics", headers: ["Authorization": auth]),
                     Request(method: "REPORT", target: "/dav/calendars/ana/inbox/", headers: ["Authorization": auth, "Depth": "1"], body: multiget)]
        for (read, expected) in zip(reads, ["SUMMARY:Kept", "<d:href>/dav/calendars/ana/inbox/a.ics</d:href>"]) {
            let response = try await router.respond(to: read)
            #expect([200, 207].contains(response.status.code))
            #expect(String(decoding: response.bodyData ?? Data(), as: UTF8.self).contains(expected))
        }
        let directory = AccountDirectory(container: container)
        let account = try #require(try directory.account(named: "ana"))
        let credential = try #require(try directory.tokens(of: account.id).first)
        #expect(try directory.revokeToken(credential.id, of: account.id))
        for read in reads { #expect(try await router.respond(to: read).status.code == 401) }
    }

    @Test("Repeated failures from one address are limited with 429 and Retry-After")
    func rateLimited() async throws {
        var statuses: [Int] = []
        for _ in 0..<7 { statuses.append(try await propfind("ana", "guess", address: "192.0.2.7").status.code) }
        #expect(statuses.prefix(5).allSatisfy { $0 == 401 })
        let limited = try await propfind("ana", password, address: "192.0.2.7")
        #expect(limited.status.code == 429)
        #expect(limited.headers["Retry-After"] != nil)
        #expect(try await propfind("ana", password, address: "192.0.2.8").status.code == 207)
    }
}

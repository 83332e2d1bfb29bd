import Foundation
import SlateCore
import SlateDAV
import SlateHTTP
import SlateStore
import TestDatabases
import Testing

/// An in-process CalDAV server over a fresh in-memory store with two accounts, `ana` and
/// `ben`. Requests sign in with `X-Account: ana` (the Basic sign-in has its own tests).
struct DAVHarness {
    let container: ModelContainer
    let router: Router
    let accounts: [String: UUID]
    /// The store's path or URL (nil: in memory).
    let path: String?

    /// Runs `body` with the path of a store another container can open too (a file in a
    /// folder of its own, removed afterwards, or a fresh PostgreSQL schema): for tests of
    /// changes made by "another process".
    static func withSharedStore<T>(_ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-dav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(TestDatabase.freshStore() ?? folder.appendingPathComponent("slate.sqlite").path)
    }

    /// `path`: the store (a fresh one of the test database's kind unless given).
    /// `identifies`: requests are recognised where their work runs, as `slate serve` wires
    /// it (a short read on SQLite then runs on the request's own thread); false: every
    /// request is signed in first, then hops.
    init(syncHistory: Int = CalendarLimits.syncHistory, path: String? = TestDatabase.freshStore(), identifies: Bool = true) throws {
        self.path = path
        container = try Slate.openContainer(path: path)
        var accounts: [String: UUID] = [:]
        for name in ["ana", "ben"] {
            accounts[name] = try Slate.ensureAccount(named: name, in: container, now: Date()).id
        }
        self.accounts = accounts
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        let known = accounts
        router = CalDAVService(directory: AccountDirectory(container: container), authenticate: { request in
            guard let name = request.headers["X-Account"], let id = known[name] else {
                throw HTTPError(.unauthorized, code: "unauthorized", message: "Sign in first.")
            }
            return id
        }, identify: identifies ? { @Sendable request in request.headers["X-Account"].flatMap { known[$0] } } : nil,
        calendar: calendar, logLevel: .off, syncHistory: syncHistory).router
    }

    /// The account's Slate, as the web app and the CLI see it.
    func slate(_ account: String = "ana") -> Slate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        return Slate(container: container, accountID: accounts[account]!, calendar: calendar)
    }

    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    @discardableResult
    func send(_ method: HTTPMethod, _ path: String, as account: String? = "ana", headers: HTTPHeaders = [:], body: String = "") async throws -> Reply {
        try await send(method, path, as: account, headers: headers, data: Data(body.utf8))
    }

    @discardableResult
    func send(_ method: HTTPMethod, _ path: String, as account: String? = "ana", headers: HTTPHeaders = [:], data: Data) async throws -> Reply {
        var all = headers
        if let account { all["X-Account"] = account }
        let response = try await router.respond(to: Request(method: method, target: path, headers: all, body: data))
        return Reply(status: response.status.code, headers: response.headers, body: response.bodyData ?? Data())
    }

    /// PROPFIND asking for `properties` (`d:getetag` style names with the usual prefixes).
    func propfind(_ path: String, depth: String = "0", _ properties: [String], as account: String = "ana") async throws -> Reply {
        let props = properties.map { "<\($0)/>" }.joined()
        return try await send("PROPFIND", path, as: account, headers: ["Depth": depth], body: """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" \
            xmlns:a="http://apple.com/ns/ical/" xmlns:x="urn:example:unknown"><d:prop>\(props)</d:prop></d:propfind>
            """)
    }

    /// A minimal VTODO in CRLF lines.
    static func todo(uid: String, summary: String, extra: [String] = []) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Test//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20261201T090000Z",
          "SUMMARY:\(summary)"] + extra + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    /// PUTs a VTODO into the Inbox; returns the reply.
    @discardableResult
    func put(_ name: String, _ text: String, in collection: String = "inbox", as account: String = "ana", headers: HTTPHeaders = [:]) async throws -> Reply {
        var all = headers
        all["Content-Type"] = "text/calendar; charset=utf-8"
        return try await send(.put, "/dav/calendars/\(account)/\(collection)/\(name)", as: account, headers: all, body: text)
    }
}

extension String {
    /// The number of times `needle` occurs.
    func occurrences(of needle: String) -> Int { components(separatedBy: needle).count - 1 }

    /// The calendar text without the lines that date its version (`DTSTAMP`,
    /// `LAST-MODIFIED`, `SEQUENCE`), which Slate rewrites whenever it rewrites an object:
    /// what is left can be compared byte for byte. `VersionLineTests` checks those lines.
    var withoutVersionLines: String {
        // Split by bytes: "\r\n" is one Character, which a split on "\n" would not cut.
        utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
            .filter { line in !["DTSTAMP", "LAST-MODIFIED", "SEQUENCE"].contains { line.hasPrefix($0 + ":") || line.hasPrefix($0 + ";") } }
            .joined(separator: "\n")
    }
}

import Foundation
import SlateCore
import Testing

/// Revisions are per account: another account's writes never move a collection's ctag,
/// sync token or a resource's ETag.
@Suite("CalDAV revisions are per account")
struct RevisionIsolationDAVTests {
    func value(_ name: String, in text: String) throws -> String {
        let start = try #require(text.range(of: "<\(name)>"))
        let end = try #require(text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    func collection(_ dav: DAVHarness) async throws -> (ctag: String, token: String) {
        let reply = try await dav.propfind("/dav/calendars/ana/inbox/", ["cs:getctag", "d:sync-token"])
        return (try value("cs:getctag", in: reply.text), try value("d:sync-token", in: reply.text))
    }

    @Test("Ben's writes leave Ana's ctag, sync token and ETags as they were")
    func anotherAccountsWritesAreInvisible() async throws {
        let dav = try DAVHarness()
        try await dav.put("a1.ics", DAVHarness.todo(uid: "a1", summary: "Ana's"))
        let before = try await collection(dav)
        let etag = try value("d:getetag", in: try await dav.propfind("/dav/calendars/ana/inbox/a1.ics", ["d:getetag"]).text)

        for index in 1...4 { try await dav.put("b\(index).ics", DAVHarness.todo(uid: "b\(index)", summary: "Ben's"), as: "ben") }
        try await dav.send(.delete, "/dav/calendars/ben/inbox/b1.ics", as: "ben")

        let after = try await collection(dav)
        #expect(after.ctag == before.ctag && after.token == before.token)
        #expect(try value("d:getetag", in: try await dav.propfind("/dav/calendars/ana/inbox/a1.ics", ["d:getetag"]).text) == etag)
        let sync = ReportTests().sync(before.token)
        let quiet = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: sync)
        #expect(quiet.status == 207 && quiet.text.occurrences(of: "<d:response>") == 0)

        // Ana's next change moves her numbers by exactly one.
        try await dav.put("a2.ics", DAVHarness.todo(uid: "a2", summary: "Ana's second"))
        let next = try await collection(dav)
        #expect(next.token != before.token)
        let number = { (token: String) in Int(token.split(separator: ":").last ?? "") }
        #expect(number(next.token) == number(before.token).map { $0 + 1 })
        let changed = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: sync)
        #expect(changed.text.occurrences(of: "<d:response>") == 1 && changed.text.contains("a2.ics"))
    }
}

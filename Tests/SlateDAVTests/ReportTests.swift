import Foundation
import SlateCore
import Testing

@Suite("CalDAV REPORTs and collections")
struct ReportTests {
    static let header = "<?xml version=\"1.0\" encoding=\"utf-8\"?>"

    func query(_ filter: String) -> String {
        Self.header + "<c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/></d:prop>"
            + "<c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VTODO\">\(filter)</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"
    }

    func sync(_ token: String, limit: Int? = nil) -> String {
        Self.header + "<d:sync-collection xmlns:d=\"DAV:\"><d:sync-token>\(token)</d:sync-token><d:sync-level>1</d:sync-level>"
            + (limit.map { "<d:limit><d:nresults>\($0)</d:nresults></d:limit>" } ?? "") + "<d:prop><d:getetag/></d:prop></d:sync-collection>"
    }

    /// The sync token of a multistatus.
    func token(_ text: String) throws -> String {
        let start = try #require(text.range(of: "<d:sync-token>"))
        let end = try #require(text.range(of: "</d:sync-token>"))
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test("calendar-multiget returns the asked resources with their data, and 404 for a missing href")
    func multiget() async throws {
        let dav = try DAVHarness()
        let text = DAVHarness.todo(uid: "m1", summary: "Fetch me & keep <this>")
        try await dav.put("m1.ics", text)
        let body = Self.header + "<c:calendar-multiget xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/><c:calendar-data/></d:prop>"
            + "<d:href>/dav/calendars/ana/inbox/m1.ics</d:href><d:href>/dav/calendars/ana/inbox/none.ics</d:href></c:calendar-multiget>"
        let reply = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", headers: ["Depth": "1"], body: body)
        #expect(reply.status == 207)
        #expect(reply.text.contains("Fetch me &amp; keep &lt;this&gt;"))
        #expect(reply.text.contains("&#13;\n"))
        #expect(reply.text.contains("<d:href>/dav/calendars/ana/inbox/none.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>"))
    }

    @Test("calendar-query: comp-filter VTODO, is-not-defined, text-match and the VTODO time-range table")
    func calendarQuery() async throws {
        let dav = try DAVHarness()
        try await dav.put("open.ics", DAVHarness.todo(uid: "open", summary: "Open task", extra: ["DUE:20261210T120000Z"]))
        try await dav.put("done.ics", DAVHarness.todo(uid: "done", summary: "Done task", extra: ["STATUS:COMPLETED", "COMPLETED:20261201T100000Z"]))
        let all = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: query(""))
        #expect(all.text.occurrences(of: "<d:response>") == 2)
        let notCompleted = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: query(
            "<c:prop-filter name=\"COMPLETED\"><c:is-not-defined/></c:prop-filter>"))
        #expect(notCompleted.text.occurrences(of: "<d:response>") == 1)
        #expect(notCompleted.text.contains("open.ics"))
        let text = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: query(
            "<c:prop-filter name=\"SUMMARY\"><c:text-match>DONE</c:text-match></c:prop-filter>"))
        #expect(text.text.occurrences(of: "<d:response>") == 1 && text.text.contains("done.ics"))
        let range = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: query(
            "<c:time-range start=\"20261205T000000Z\" end=\"20261215T000000Z\"/>"))
        #expect(range.text.occurrences(of: "<d:response>") == 1 && range.text.contains("open.ics"))
        let completedRange = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: query(
            "<c:time-range start=\"20261130T000000Z\" end=\"20261202T000000Z\"/>"))
        #expect(completedRange.text.occurrences(of: "<d:response>") == 1 && completedRange.text.contains("done.ics"))
        let events = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: Self.header
            + "<c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/></d:prop>"
            + "<c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VEVENT\"/></c:comp-filter></c:filter></c:calendar-query>")
        #expect(events.status == 207 && events.text.occurrences(of: "<d:response>") == 0)
    }

    @Test("A malformed multiget or sync body, small (read before the work) or large, is a 400 naming the fault; unsigned, a 401 first",
          arguments: [
            "<c:calendar-multiget xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:href>/x.ics</d:href>",
            "<d:sync-collection xmlns:d=\"DAV:\"><d:sync-token>http://slate/sync/1</d:sync-token><d:sync-level>1</d:sync-collection>",
            "<!DOCTYPE c [<!ENTITY a \"a\">]><c:calendar-multiget xmlns:c=\"urn:ietf:params:xml:ns:caldav\"/>",
            "<c:calendar-multiget xmlns:c=\"urn:ietf:params:xml:ns:caldav\">" + String(repeating: "<d:href>/x.ics</d:href>", count: 4_000),
          ])
    func malformedMultiget(body: String) async throws {
        let dav = try DAVHarness()
        let refused = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", headers: ["Depth": "1"], body: Self.header + body)
        #expect(refused.status == 400)
        #expect(refused.text.contains("The XML body was refused: "))
        let unsigned = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", as: nil, headers: ["Depth": "1"], body: Self.header + body)
        #expect(unsigned.status == 401)
    }

    @Test("sync-collection: everything first, then only changes, deletions as 404, a bad token 403")
    func syncCollection() async throws {
        let dav = try DAVHarness()
        try await dav.put("s1.ics", DAVHarness.todo(uid: "s1", summary: "One"))
        try await dav.put("s2.ics", DAVHarness.todo(uid: "s2", summary: "Two"))
        let first = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: sync(""))
        #expect(first.text.occurrences(of: "<d:getetag>") == 2)
        let token1 = try token(first.text)
        let quiet = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: sync(token1))
        #expect(quiet.text.occurrences(of: "<d:response>") == 0)
        let task = try #require(try dav.slate().tasks().first { $0.title == "One" })
        try dav.slate().updateTask(task.id, TaskPatch(title: "One, renamed"))
        try await dav.send(.delete, "/dav/calendars/ana/inbox/s2.ics")
        let changed = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: sync(token1))
        #expect(changed.text.contains("<d:href>/dav/calendars/ana/inbox/s1.ics</d:href><d:propstat>"))
        #expect(changed.text.contains("<d:href>/dav/calendars/ana/inbox/s2.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>"))
        #expect(try token(changed.text) != token1)
        let bad = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: sync("urn:x-slate:sync:99999999"))
        #expect(bad.status == 403 && bad.text.contains("valid-sync-token"))
        let foreign = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: sync("http://example.com/other-server/1"))
        #expect(foreign.status == 403 && foreign.text.contains("valid-sync-token"))
    }

    @Test("sync-collection with DAV:limit answers 507 and a token that resumes exactly where it stopped")
    func syncLimit() async throws {
        let dav = try DAVHarness()
        for index in 1...5 { try await dav.put("l\(index).ics", DAVHarness.todo(uid: "l\(index)", summary: "Item \(index)")) }
        var token = ""
        var seen: [String] = []
        for _ in 0..<5 {
            let page = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", body: sync(token, limit: 2))
            let hrefs = page.text.components(separatedBy: "<d:href>").dropFirst().map { $0.components(separatedBy: "</d:href>")[0] }
                .filter { $0.hasSuffix(".ics") }
            seen += hrefs
            token = try self.token(page.text)
            if !page.text.contains("507 Insufficient Storage") { break }
            #expect(hrefs.count == 2)
        }
        #expect(seen.sorted() == (1...5).map { "/dav/calendars/ana/inbox/l\($0).ics" })
    }

    @Test("MKCALENDAR makes a list, PROPPATCH renames, recolours and reorders it, DELETE removes it with its tasks")
    func collections() async throws {
        let dav = try DAVHarness()
        let make = try await dav.send("MKCALENDAR", "/dav/calendars/ana/errands/", body: Self.header
            + "<c:mkcalendar xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\" xmlns:a=\"http://apple.com/ns/ical/\"><d:set><d:prop>"
            + "<d:displayname>Errands</d:displayname><a:calendar-color>#A8E6CFFF</a:calendar-color>"
            + "<c:supported-calendar-component-set><c:comp name=\"VTODO\"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>")
        #expect(make.status == 201)
        let list = try #require(try dav.slate().list(named: "Errands"))
        #expect(list.color == "#A8E6CF")
        let patch = try await dav.send("PROPPATCH", "/dav/calendars/ana/errands/", body: Self.header
            + "<d:propertyupdate xmlns:d=\"DAV:\" xmlns:a=\"http://apple.com/ns/ical/\"><d:set><d:prop><d:displayname>Shopping</d:displayname>"
            + "<a:calendar-color>#FF6B6B</a:calendar-color><a:calendar-order>7</a:calendar-order></d:prop></d:set></d:propertyupdate>")
        #expect(patch.status == 207 && patch.text.contains("200 OK"))
        let renamed = try #require(try dav.slate().list(named: "Shopping"))
        #expect(renamed.color == "#FF6B6B" && renamed.order == 7)
        try await dav.put("milk.ics", DAVHarness.todo(uid: "milk", summary: "Milk"), in: "errands")
        #expect(try dav.slate().tasks().first?.listID == list.id)
        let event = try await dav.send("MKCALENDAR", "/dav/calendars/ana/events/", body: Self.header
            + "<c:mkcalendar xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:set><d:prop>"
            + "<c:supported-calendar-component-set><c:comp name=\"VEVENT\"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>")
        #expect(event.status == 403)
        let mkcol = try await dav.send("MKCOL", "/dav/calendars/ana/chores/", body: Self.header
            + "<d:mkcol xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:set><d:prop><d:resourcetype><d:collection/><c:calendar/>"
            + "</d:resourcetype><d:displayname>Chores</d:displayname></d:prop></d:set></d:mkcol>")
        #expect(mkcol.status == 201)
        #expect(try dav.slate().list(named: "Chores") != nil)
        #expect(try await dav.send(.delete, "/dav/calendars/ana/errands/").status == 204)
        #expect(try dav.slate().list(named: "Shopping") == nil)
        #expect(try dav.slate().tasks().isEmpty)
        #expect(try await dav.send(.delete, "/dav/calendars/ana/inbox/").status == 403)
    }
}

import Foundation
import SlateCore
import Testing

/// The exact bytes of a multiget, a PROPFIND Depth 1 and a calendar-query with data over one
/// collection of every kind of object: stored as sent, stored then changed in Slate, a
/// series holding an occurrence's override, a subtask, a task made in Slate (served under
/// its default name). Recorded before the read path's speed work (caldav8), so that a
/// faster read can only be the same answer.
@Suite("CalDAV: the bytes of listing and data answers")
struct AnswerBytesTests {
    static let inbox = "/dav/calendars/ana/inbox/"
    static let head = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:multistatus xmlns:d=\"DAV:\" "
        + "xmlns:c=\"urn:ietf:params:xml:ns:caldav\" xmlns:cs=\"http://calendarserver.org/ns/\" xmlns:a=\"http://apple.com/ns/ical/\">"
    static let tail = "</d:multistatus>\n"

    /// The collection described above; returns the Slate-made task's id and the one of ben's task.
    func seed(_ dav: DAVHarness) async throws -> (made: UUID, bens: UUID) {
        #expect(try await dav.put("a.ics", DAVHarness.todo(uid: "a", summary: "Kept & <as sent>")).status == 201)
        #expect(try await dav.put("b.ics", DAVHarness.todo(uid: "b", summary: "Before", extra: ["PRIORITY:5"])).status == 201)
        #expect(try await dav.put("c.ics", DAVHarness.todo(uid: "c", summary: "Child", extra: ["RELATED-TO:a"])).status == 201)
        #expect(try await dav.put("series.ics", RecurringCompletionTests().thunderbird(completed: ["20261201"])).status == 201)
        #expect(try await dav.send("MKCALENDAR", "/dav/calendars/ana/work/").status == 201)
        #expect(try await dav.put("w.ics", DAVHarness.todo(uid: "w", summary: "Elsewhere"), in: "work").status == 201)
        let b = try #require(try dav.slate().tasks(TaskQuery(status: .all)).first { $0.title == "Before" })
        _ = try dav.slate().updateTask(b.id, TaskPatch(title: "After, in Slate"))
        let made = try dav.slate().addTask(TaskDraft(title: "Made in Slate"))
        let bens = try dav.slate("ben").addTask(TaskDraft(title: "Ben's"))
        return (made.id, bens.id)
    }

    func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\r", with: "&#13;")
    }

    /// A response with getetag and calendar-data, the data as GET serves it.
    func dataResponse(_ dav: DAVHarness, _ href: String, etag: Int) async throws -> String {
        let got = try await dav.send(.get, href)
        #expect(got.status == 200 && got.headers["ETag"] == "\"\(etag)\"")
        return "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>&quot;\(etag)&quot;</d:getetag>"
            + "<c:calendar-data>\(escaped(got.text))</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    func etagResponse(_ href: String, etag: Int) -> String {
        "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>&quot;\(etag)&quot;</d:getetag></d:prop>"
            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    func missing(_ href: String) -> String { "<d:response><d:href>\(href)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>" }

    @Test("A multiget's bytes: each asked object in order, then the missing, another list's and another account's hrefs as 404")
    func multigetBytes() async throws {
        let dav = try DAVHarness()
        let (made, bens) = try await seed(dav)
        let inbox = Self.inbox
        let asked = ["c.ics", "\(made.uuidString).ics", "a.ics", "none.ics", "series.ics", "w.ics", "b.ics", "\(bens.uuidString).ics"]
        let body = ReportTests.header + "<c:calendar-multiget xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/>"
            + "<c:calendar-data/></d:prop>" + asked.map { "<d:href>\(inbox)\($0)</d:href>" }.joined() + "</c:calendar-multiget>"
        let reply = try await dav.send("REPORT", inbox, headers: ["Depth": "1"], body: body)
        #expect(reply.status == 207)
        var expected = Self.head
        expected += try await dataResponse(dav, inbox + "c.ics", etag: 3)
        expected += try await dataResponse(dav, inbox + "\(made.uuidString).ics", etag: 9)
        expected += try await dataResponse(dav, inbox + "a.ics", etag: 3)
        expected += try await dataResponse(dav, inbox + "series.ics", etag: 4)
        expected += try await dataResponse(dav, inbox + "b.ics", etag: 8)
        expected += [inbox + "none.ics", inbox + "w.ics", inbox + "\(bens.uuidString).ics"].map(missing).joined() + Self.tail
        #expect(reply.text == expected)
        // The rewritten title, the override and the parent link are in the bytes compared.
        #expect(expected.contains("SUMMARY:After\\, in Slate") && expected.contains("RECURRENCE-ID;VALUE=DATE:20261201")
            && expected.contains("RELATED-TO:a") && expected.contains("Kept &amp; &lt;as sent&gt;"))
    }

    @Test("A PROPFIND Depth 1's bytes: the collection, then each object's ETag in the listing's order")
    func propfindBytes() async throws {
        let dav = try DAVHarness()
        let (made, _) = try await seed(dav)
        let reply = try await dav.propfind(Self.inbox, depth: "1", ["d:getetag"])
        #expect(reply.status == 207)
        let expected = Self.head + "<d:response><d:href>\(Self.inbox)</d:href><d:propstat><d:prop><d:getetag/></d:prop>"
            + "<d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response>"
            + etagResponse(Self.inbox + "a.ics", etag: 3) + etagResponse(Self.inbox + "b.ics", etag: 8)
            + etagResponse(Self.inbox + "c.ics", etag: 3) + etagResponse(Self.inbox + "series.ics", etag: 4)
            + etagResponse(Self.inbox + "\(made.uuidString).ics", etag: 9) + Self.tail
        #expect(reply.text == expected)
    }

    @Test("A PROPFIND Depth 1 of ETags, content types and resource types (names and revisions only) answers each object as its own Depth 0 does")
    func tagListingMatchesEachObject() async throws {
        let dav = try DAVHarness()
        let (made, _) = try await seed(dav)
        let properties = ["d:resourcetype", "d:getetag", "d:getcontenttype"]
        let listing = try await dav.propfind(Self.inbox, depth: "1", properties)
        #expect(listing.status == 207)
        var responses = ""
        for name in ["a.ics", "b.ics", "c.ics", "series.ics", "\(made.uuidString).ics"] {
            let alone = try await dav.propfind(Self.inbox + name, depth: "0", properties).text
            let start = try #require(alone.range(of: "<d:response>"))
            let end = try #require(alone.range(of: "</d:multistatus>"))
            responses += alone[start.lowerBound..<end.lowerBound]
        }
        #expect(responses.contains("<d:resourcetype/><d:getetag>&quot;4&quot;</d:getetag><d:getcontenttype>text/calendar"))
        #expect(listing.text.hasSuffix(responses + Self.tail))
    }

    @Test("A multiget reads an href with whitespace around it (ASCII or not) and a percent-encoded name")
    func hrefForms() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("with%20space.ics", DAVHarness.todo(uid: "s", summary: "Spaced")).status == 201)
        #expect(try await dav.put("plain.ics", DAVHarness.todo(uid: "p", summary: "Plain")).status == 201)
        let hrefs = ["\n  \(Self.inbox)plain.ics\t", "\(Self.inbox)with%20space.ics", "\u{00A0}\(Self.inbox)plain.ics\u{2003}"]
        let body = ReportTests.header + "<c:calendar-multiget xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/>"
            + "</d:prop>" + hrefs.map { "<d:href>\($0)</d:href>" }.joined() + "</c:calendar-multiget>"
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: body)
        #expect(reply.status == 207)
        #expect(reply.text == Self.head + etagResponse(Self.inbox + "plain.ics", etag: 2) + etagResponse(Self.inbox + "with%20space.ics", etag: 1)
            + etagResponse(Self.inbox + "plain.ics", etag: 2) + Self.tail)
    }

    @Test("A calendar-query with data: the same bytes as each object's GET, in the listing's order")
    func queryBytes() async throws {
        let dav = try DAVHarness()
        let (made, _) = try await seed(dav)
        let body = ReportTests.header + "<c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/>"
            + "<c:calendar-data/></d:prop><c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VTODO\"/></c:comp-filter>"
            + "</c:filter></c:calendar-query>"
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: body)
        #expect(reply.status == 207)
        var expected = Self.head
        for (name, etag) in [("a.ics", 3), ("b.ics", 8), ("c.ics", 3), ("series.ics", 4), ("\(made.uuidString).ics", 9)] {
            expected += try await dataResponse(dav, Self.inbox + name, etag: etag)
        }
        #expect(reply.text == expected + Self.tail)
    }
}

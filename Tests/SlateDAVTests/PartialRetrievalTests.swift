import Foundation
import SlateCore
import Testing

/// calendar-data partial retrieval (RFC 4791 §9.6.1–9.6.4) in calendar-query and
/// calendar-multiget: only the components and properties named, their lines byte for byte.
@Suite("CalDAV: calendar-data comp / prop / allprop / allcomp return only what is named")
struct PartialRetrievalTests {
    static let inbox = "/dav/calendars/ana/inbox/"
    static let namespaces = "xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\""

    /// A calendar-query for every VTODO asking for `calendarData` (the inside of calendar-data).
    static func query(_ calendarData: String) -> String {
        ReportTests.header + "<c:calendar-query \(namespaces)><d:prop><d:getetag/><c:calendar-data>\(calendarData)</c:calendar-data></d:prop>"
            + "<c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VTODO\"/></c:comp-filter></c:filter></c:calendar-query>"
    }

    /// `<c:comp name="VCALENDAR">…</c:comp>` around `inside`.
    static func calendar(_ inside: String) -> String { "<c:comp name=\"VCALENDAR\">\(inside)</c:comp>" }

    /// The calendar-data of each response of a multistatus, by resource name, unescaped.
    static func data(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for response in text.components(separatedBy: "<d:response>").dropFirst() {
            let href = String(response.components(separatedBy: "<d:href>").dropFirst().first?.prefix { $0 != "<" } ?? "")
            guard let data = response.components(separatedBy: "calendar-data>").dropFirst().first else { continue }
            result[href.replacingOccurrences(of: inbox, with: "")] = String(data.prefix { $0 != "<" })
                .replacingOccurrences(of: "&#13;", with: "\r").replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
        return result
    }

    static let zone = ["BEGIN:VTIMEZONE", "TZID:Europe/Paris", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200",
                       "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE"]
    static let alarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;RELATED=END:-PT15M", "X-MOZ-LASTACK:20261130T090000Z", "END:VALARM"]

    /// A VTODO with a VTIMEZONE, a folded SUMMARY, a DESCRIPTION whose parameter holds a colon, and an alarm.
    static let stored = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Test//EN"] + zone + [
        "BEGIN:VTODO", "UID:partial", "DTSTAMP:20261201T090000Z",
        "SUMMARY:Build the set for the second unit\r\n  before the crew arrives on Monday",
        "DESCRIPTION;ALTREP=\"cid:part1.0001@example.org\":Plans: see the attachment",
        "DUE;TZID=Europe/Paris:20261210T180000", "PRIORITY:1"] + alarm + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"

    static func lines(_ lines: [String]) -> String { lines.joined(separator: "\r\n") + "\r\n" }

    func stored(_ dav: DAVHarness) async throws {
        #expect(try await dav.put("partial.ics", Self.stored).status == 201)
        #expect(try await dav.send(.get, Self.inbox + "partial.ics").text == Self.stored)
    }

    @Test("VCALENDAR allprop and a VTODO with only SUMMARY and UID: those lines as stored (the fold kept), no VTIMEZONE, no VALARM")
    func summaryAndUID() async throws {
        let dav = try DAVHarness()
        try await stored(dav)
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: Self.query(Self.calendar(
            "<c:allprop/><c:comp name=\"VTODO\"><c:prop name=\"SUMMARY\"/><c:prop name=\"uid\"/></c:comp>")))
        #expect(reply.status == 207)
        #expect(Self.data(reply.text)["partial.ics"] == Self.lines([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Test//EN", "BEGIN:VTODO", "UID:partial",
            "SUMMARY:Build the set for the second unit\r\n  before the crew arrives on Monday", "END:VTODO", "END:VCALENDAR"]))
    }

    @Test("allprop on the VTODO keeps its properties, not its VALARM; allcomp on VCALENDAR returns the object whole; an unknown component matches nothing")
    func allpropAndAllcomp() async throws {
        let dav = try DAVHarness()
        try await stored(dav)
        let allprop = try await dav.send("REPORT", Self.inbox, body: Self.query(Self.calendar("<c:comp name=\"VTODO\"><c:allprop/></c:comp>")))
        #expect(Self.data(allprop.text)["partial.ics"] == Self.lines([
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:partial", "DTSTAMP:20261201T090000Z",
            "SUMMARY:Build the set for the second unit\r\n  before the crew arrives on Monday",
            "DESCRIPTION;ALTREP=\"cid:part1.0001@example.org\":Plans: see the attachment",
            "DUE;TZID=Europe/Paris:20261210T180000", "PRIORITY:1", "END:VTODO", "END:VCALENDAR"]))
        let whole = try await dav.send("REPORT", Self.inbox, body: Self.query(Self.calendar("<c:allprop/><c:allcomp/>")))
        #expect(Self.data(whole.text)["partial.ics"] == Self.stored)
        let unknown = try await dav.send("REPORT", Self.inbox, body: Self.query(Self.calendar("<c:comp name=\"VEVENT\"><c:allprop/></c:comp>")))
        #expect(Self.data(unknown.text)["partial.ics"] == Self.lines(["BEGIN:VCALENDAR", "END:VCALENDAR"]))
    }

    @Test("novalue=\"yes\": the name and parameters with an empty value (a colon inside a quoted parameter is kept); the VTIMEZONE when asked for")
    func novalue() async throws {
        let dav = try DAVHarness()
        try await stored(dav)
        let reply = try await dav.send("REPORT", Self.inbox, body: Self.query(Self.calendar(
            "<c:comp name=\"VTIMEZONE\"><c:prop name=\"TZID\"/></c:comp><c:comp name=\"VTODO\"><c:prop name=\"DESCRIPTION\" novalue=\"yes\"/>"
                + "<c:prop name=\"DUE\" novalue=\"yes\"/><c:prop name=\"PRIORITY\" novalue=\"no\"/></c:comp>")))
        #expect(Self.data(reply.text)["partial.ics"] == Self.lines([
            "BEGIN:VCALENDAR", "BEGIN:VTIMEZONE", "TZID:Europe/Paris", "END:VTIMEZONE", "BEGIN:VTODO",
            "DESCRIPTION;ALTREP=\"cid:part1.0001@example.org\":", "DUE;TZID=Europe/Paris:", "PRIORITY:1", "END:VTODO", "END:VCALENDAR"]))
    }

    @Test("A nested VALARM comp: the alarm's named properties inside the VTODO's")
    func nestedAlarm() async throws {
        let dav = try DAVHarness()
        try await stored(dav)
        let reply = try await dav.send("REPORT", Self.inbox, body: Self.query(Self.calendar(
            "<c:comp name=\"VTODO\"><c:prop name=\"UID\"/><c:comp name=\"VALARM\"><c:prop name=\"TRIGGER\"/><c:prop name=\"X-MOZ-LASTACK\"/></c:comp></c:comp>")))
        #expect(Self.data(reply.text)["partial.ics"] == Self.lines([
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:partial", "BEGIN:VALARM", "TRIGGER;RELATED=END:-PT15M",
            "X-MOZ-LASTACK:20261130T090000Z", "END:VALARM", "END:VTODO", "END:VCALENDAR"]))
    }

    @Test("With expand: the selection applies to each expanded instance")
    func withExpand() async throws {
        let dav = try DAVHarness()
        try await dav.put("weekly.ics", DAVHarness.todo(uid: "weekly", summary: "Weekly", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY"]))
        let reply = try await dav.send("REPORT", Self.inbox, body: Self.query("<c:expand start=\"20261201T000000Z\" end=\"20261215T000000Z\"/>"
            + Self.calendar("<c:comp name=\"VTODO\"><c:prop name=\"RECURRENCE-ID\"/><c:prop name=\"SUMMARY\"/></c:comp>")))
        #expect(reply.status == 207)
        let data = try #require(Self.data(reply.text)["weekly.ics"])
        let instances = ["20261201T090000Z", "20261208T090000Z"].map { ["BEGIN:VTODO", "SUMMARY:Weekly", "RECURRENCE-ID:\($0)", "END:VTODO"] }
        let ordered = data.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(ordered.first == "BEGIN:VCALENDAR" && ordered.last == "END:VCALENDAR")
        // Each instance has exactly the two properties (in the expansion's own order).
        let bodies = ordered.dropFirst().dropLast().split(separator: "END:VTODO").map { Set($0) }
        #expect(bodies == instances.map { Set($0.dropLast()) })
    }

    @Test("calendar-multiget: the selection for each href found, 404 for one that is not")
    func multiget() async throws {
        let dav = try DAVHarness()
        try await stored(dav)
        try await dav.put("other.ics", DAVHarness.todo(uid: "other", summary: "Other"))
        let body = ReportTests.header + "<c:calendar-multiget \(Self.namespaces)><d:prop><c:calendar-data>"
            + Self.calendar("<c:comp name=\"VTODO\"><c:prop name=\"SUMMARY\"/></c:comp>") + "</c:calendar-data></d:prop>"
            + ["partial.ics", "other.ics", "missing.ics"].map { "<d:href>\(Self.inbox)\($0)</d:href>" }.joined() + "</c:calendar-multiget>"
        let reply = try await dav.send("REPORT", Self.inbox, body: body)
        #expect(reply.status == 207)
        let data = Self.data(reply.text)
        #expect(data["partial.ics"] == Self.lines(["BEGIN:VCALENDAR", "BEGIN:VTODO",
                                                   "SUMMARY:Build the set for the second unit\r\n  before the crew arrives on Monday", "END:VTODO", "END:VCALENDAR"]))
        #expect(data["other.ics"] == Self.lines(["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:Other", "END:VTODO", "END:VCALENDAR"]))
        #expect(reply.text.contains("\(Self.inbox)missing.ics</d:href><d:status>HTTP/1.1 404"))
    }

    @Test("Refused with 400 naming the element: a comp or prop without a name, novalue other than yes or no, too many elements")
    func refused() async throws {
        let dav = try DAVHarness()
        try await stored(dav)
        let many = (1...CalendarDataSelection.maximumElements).map { "<c:prop name=\"X-\($0)\"/>" }.joined()
        let cases: [(String, [String])] = [
            (Self.calendar("<c:comp><c:allprop/></c:comp>"), ["CALDAV:comp", "name"]),
            (Self.calendar("<c:comp name=\"VTODO\"><c:prop/></c:comp>"), ["CALDAV:prop", "name"]),
            (Self.calendar("<c:comp name=\"VTODO\"><c:prop name=\"DUE\" novalue=\"maybe\"/></c:comp>"), ["novalue", "yes or no", "maybe"]),
            (Self.calendar("<c:comp name=\"VTODO\">\(many)</c:comp>"), ["at most \(CalendarDataSelection.maximumElements)", "CALDAV:prop"]),
        ]
        for (calendarData, words) in cases {
            let reply = try await dav.send("REPORT", Self.inbox, body: Self.query(calendarData))
            #expect(reply.status == 400, "\(calendarData.prefix(80))")
            for word in words { #expect(reply.text.contains(word), "\(word): \(reply.text.prefix(300))") }
        }
        // Exactly at the cap is served.
        let atCap = (1..<CalendarDataSelection.maximumElements - 1).map { "<c:prop name=\"X-\($0)\"/>" }.joined()
        #expect(try await dav.send("REPORT", Self.inbox, body: Self.query(Self.calendar("<c:comp name=\"VTODO\">\(atCap)</c:comp>"))).status == 207)
    }
}

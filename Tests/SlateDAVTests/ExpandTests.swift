import Foundation
import SlateCore
import Testing

/// CALDAV:expand in calendar-data (RFC 4791 §9.6.5): one VTODO per instance in the range,
/// each with a RECURRENCE-ID and no recurrence properties, times in UTC (`CalendarExpansion`).
@Suite("CalDAV: calendar-data expand returns one VTODO per instance")
struct ExpandTests {
    static let inbox = "/dav/calendars/ana/inbox/"
    static let open = "<c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"

    /// A calendar-query for VTODOs in [start, end) asking for their data expanded over `expand`.
    static func query(_ start: String, _ end: String, expand: String? = nil, extra: String = "") -> String {
        ReportTests.header + open + "<d:prop><d:getetag/><c:calendar-data>\(expand ?? "<c:expand start=\"\(start)\" end=\"\(end)\"/>")\(extra)</c:calendar-data></d:prop>"
            + "<c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VTODO\"><c:time-range start=\"\(start)\" end=\"\(end)\"/>"
            + "</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"
    }

    /// The VTODOs of each calendar-data in a multistatus, by href: each VTODO's content
    /// lines as `NAME;PARAMS` → value (its VALARMs left out).
    static func todos(_ text: String) -> [String: [[String: String]]] {
        var result: [String: [[String: String]]] = [:]
        for response in text.components(separatedBy: "<d:response>").dropFirst() {
            let href = String(response.components(separatedBy: "<d:href>").dropFirst().first?.prefix { $0 != "<" } ?? "")
            guard let data = response.components(separatedBy: "calendar-data>").dropFirst().first else { continue }
            let calendar = data.prefix { $0 != "<" }.replacingOccurrences(of: "&#13;", with: "").replacingOccurrences(of: "&amp;", with: "&")
            var todos: [[String: String]] = []
            var depth = 0
            for line in calendar.components(separatedBy: "\n") where !line.isEmpty {
                if line == "BEGIN:VTODO" { todos.append([:]); depth = 1; continue }
                if line.hasPrefix("BEGIN:") { depth += depth > 0 ? 1 : 0; continue }
                if line.hasPrefix("END:") { depth = max(depth - 1, 0); continue }
                guard depth == 1, let colon = line.firstIndex(of: ":") else { continue }
                todos[todos.count - 1][String(line[..<colon])] = String(line[line.index(after: colon)...])
            }
            result[href.replacingOccurrences(of: inbox, with: "")] = todos
        }
        return result
    }

    @Test("A weekly task over three weeks: three VTODOs, each with its RECURRENCE-ID, DTSTART and DUE, no RRULE; a TZID series comes back in UTC without VTIMEZONE")
    func weekly() async throws {
        let dav = try DAVHarness()
        try await dav.put("weekly.ics", DAVHarness.todo(uid: "weekly", summary: "Weekly", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY"]))
        // 09:00 in Paris is 08:00Z in winter.
        try await dav.put("paris.ics", DAVHarness.todo(uid: "paris", summary: "Paris", extra: [
            "DTSTART;TZID=Europe/Paris:20261201T090000", "DUE;TZID=Europe/Paris:20261201T091500", "RRULE:FREQ=WEEKLY"]))
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: Self.query("20261201T000000Z", "20261222T000000Z"))
        #expect(reply.status == 207)
        let todos = Self.todos(reply.text)
        let weekly = try #require(todos["weekly.ics"])
        #expect(weekly.map { $0["RECURRENCE-ID"] } == ["20261201T090000Z", "20261208T090000Z", "20261215T090000Z"])
        #expect(weekly.map { $0["DTSTART"] } == ["20261201T090000Z", "20261208T090000Z", "20261215T090000Z"])
        #expect(weekly.map { $0["DUE"] } == ["20261201T100000Z", "20261208T100000Z", "20261215T100000Z"])
        #expect(weekly.allSatisfy { $0["RRULE"] == nil && $0["SUMMARY"] == "Weekly" && $0["UID"] == "weekly" })
        let paris = try #require(todos["paris.ics"])
        #expect(paris.map { $0["RECURRENCE-ID"] } == ["20261201T080000Z", "20261208T080000Z", "20261215T080000Z"])
        #expect(paris.map { $0["DUE"] } == ["20261201T081500Z", "20261208T081500Z", "20261215T081500Z"])
        #expect(!reply.text.contains("TZID") && !reply.text.contains("VTIMEZONE") && !reply.text.contains("RRULE"))
    }

    @Test("An override replaces its instance with its own properties; EXDATE removes one; RDATE adds one")
    func exceptions() async throws {
        let dav = try DAVHarness()
        let moved = DAVHarness.todo(uid: "moved", summary: "Series", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY"])
            .replacingOccurrences(of: "END:VCALENDAR\r\n", with: [
                "BEGIN:VTODO", "UID:moved", "RECURRENCE-ID:20261208T090000Z", "DTSTAMP:20261201T090000Z", "SUMMARY:Moved to Thursday",
                "DTSTART:20261210T090000Z", "DUE:20261210T100000Z", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n"))
        #expect(try await dav.put("moved.ics", moved).status == 201)
        try await dav.put("ex.ics", DAVHarness.todo(uid: "ex", summary: "Skips one", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY", "EXDATE:20261208T090000Z", "RDATE:20261210T090000Z"]))
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: Self.query("20261201T000000Z", "20261222T000000Z"))
        let todos = Self.todos(reply.text)
        let series = try #require(todos["moved.ics"])
        #expect(series.count == 3)
        let override = try #require(series.first { $0["RECURRENCE-ID"] == "20261208T090000Z" })
        #expect(override["SUMMARY"] == "Moved to Thursday" && override["DTSTART"] == "20261210T090000Z" && override["DUE"] == "20261210T100000Z")
        #expect(Set(series.compactMap { $0["RECURRENCE-ID"] }) == ["20261201T090000Z", "20261208T090000Z", "20261215T090000Z"])
        #expect(series.filter { $0["SUMMARY"] == "Series" }.count == 2)
        let ex = try #require(todos["ex.ics"])
        #expect(ex.map { $0["RECURRENCE-ID"] } == ["20261201T090000Z", "20261210T090000Z", "20261215T090000Z"])
        #expect(ex.allSatisfy { $0["EXDATE"] == nil && $0["RDATE"] == nil })

        // The override moved out of the range is left out with its instance.
        let second = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: Self.query("20261208T000000Z", "20261209T000000Z"))
        #expect(Self.todos(second.text)["moved.ics"] == nil)
        let thursday = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: Self.query("20261210T000000Z", "20261211T000000Z"))
        #expect(Self.todos(thursday.text)["moved.ics"]?.map { $0["SUMMARY"] } == ["Moved to Thursday"])
    }

    @Test("An all-day series: RECURRENCE-ID and DUE stay dates, within COUNT")
    func allDay() async throws {
        let dav = try DAVHarness()
        try await dav.put("days.ics", DAVHarness.todo(uid: "days", summary: "All day", extra: [
            "DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261202", "RRULE:FREQ=WEEKLY;COUNT=3"]))
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: Self.query("20261125T000000Z", "20261231T000000Z"))
        let days = try #require(Self.todos(reply.text)["days.ics"])
        #expect(days.map { $0["RECURRENCE-ID;VALUE=DATE"] } == ["20261201", "20261208", "20261215"])
        #expect(days.map { $0["DTSTART;VALUE=DATE"] } == ["20261201", "20261208", "20261215"])
        #expect(days.map { $0["DUE;VALUE=DATE"] } == ["20261202", "20261209", "20261216"])
    }

    @Test("calendar-multiget with expand: a series is expanded, a task that does not repeat is returned as it is; getcontentlength stays the resource's")
    func multiget() async throws {
        let dav = try DAVHarness()
        try await dav.put("weekly.ics", DAVHarness.todo(uid: "weekly", summary: "Weekly", extra: [
            "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY;COUNT=10"]))
        try await dav.put("once.ics", DAVHarness.todo(uid: "once", summary: "Once", extra: ["DUE:20270301T100000Z"]))
        let body = ReportTests.header + "<c:calendar-multiget xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getcontentlength/>"
            + "<c:calendar-data><c:expand start=\"20261207T000000Z\" end=\"20261216T000000Z\"/></c:calendar-data></d:prop>"
            + "<d:href>\(Self.inbox)weekly.ics</d:href><d:href>\(Self.inbox)once.ics</d:href></c:calendar-multiget>"
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: body)
        #expect(reply.status == 207)
        let todos = Self.todos(reply.text)
        #expect(todos["weekly.ics"]?.map { $0["RECURRENCE-ID"] } == ["20261208T100000Z", "20261215T100000Z"])
        #expect(todos["weekly.ics"]?.map { $0["DUE"] } == ["20261208T100000Z", "20261215T100000Z"])
        #expect(todos["once.ics"]?.map { $0["DUE"] } == ["20270301T100000Z"])
        #expect(todos["once.ics"]?.first?["RECURRENCE-ID"] == nil)
        let stored = try await dav.send(.get, Self.inbox + "weekly.ics")
        #expect(reply.text.contains("<d:getcontentlength>\(stored.body.count)</d:getcontentlength>"))
    }

    @Test("Bad expand attributes: 400 with CALDAV:supported-calendar-data and a message naming the attribute")
    func badAttributes() async throws {
        let dav = try DAVHarness()
        try await dav.put("weekly.ics", DAVHarness.todo(uid: "weekly", summary: "Weekly", extra: ["DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY"]))
        let cases: [(expand: String, names: String)] = [
            ("<c:expand start=\"20261201T000000Z\"/>", "end attribute"),
            ("<c:expand end=\"20261201T000000Z\"/>", "start attribute"),
            ("<c:expand start=\"20261201T000000\" end=\"20261208T000000Z\"/>", "start must be a UTC date-time"),
            ("<c:expand start=\"20261201T000000Z\" end=\"2026-12-08\"/>", "end must be a UTC date-time"),
            ("<c:expand start=\"20261208T000000Z\" end=\"20261208T000000Z\"/>", "end must be later than its start"),
            ("<c:expand start=\"20261208T000000Z\" end=\"20261201T000000Z\"/>", "end must be later than its start"),
        ]
        for (expand, names) in cases {
            let reply = try await dav.send("REPORT", Self.inbox, body: Self.query("20261201T000000Z", "20261222T000000Z", expand: expand))
            #expect(reply.status == 400, "\(expand)")
            #expect(reply.text.contains("supported-calendar-data") && reply.text.contains(names), "\(expand): \(reply.text)")
        }
        // Nothing was changed by the refusals.
        let get = try await dav.send(.get, Self.inbox + "weekly.ics")
        #expect(get.text.contains("RRULE:FREQ=WEEKLY"))
    }

    @Test("The bound: at most 1,000 instances a resource; a rule not expanded (BYMONTHDAY) and limit-recurrence-set leave the data as stored")
    func bounds() async throws {
        let dav = try DAVHarness()
        try await dav.put("minutely.ics", DAVHarness.todo(uid: "minutely", summary: "Every minute", extra: [
            "DTSTART:20261201T000000Z", "DUE:20261201T000000Z", "RRULE:FREQ=MINUTELY"]))
        try await dav.put("monthday.ics", DAVHarness.todo(uid: "monthday", summary: "On the 15th", extra: [
            "DTSTART:20261215T090000Z", "DUE:20261215T100000Z", "RRULE:FREQ=MONTHLY;BYMONTHDAY=15"]))
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: Self.query("20261201T000000Z", "20261216T000000Z"))
        let todos = Self.todos(reply.text)
        let minutely = try #require(todos["minutely.ics"])
        // The first 1,000 minutes (CalendarRecurrenceRange.maximumInstances), of the range's 21,600.
        #expect(minutely.count == 1_000)
        #expect(minutely.first?["RECURRENCE-ID"] == "20261201T000000Z" && minutely.last?["RECURRENCE-ID"] == "20261201T163900Z")
        #expect(todos["monthday.ics"]?.map { $0["RRULE"] } == ["FREQ=MONTHLY;BYMONTHDAY=15"])

        let limited = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: Self.query(
            "20261201T000000Z", "20261216T000000Z", expand: "", extra: "<c:limit-recurrence-set start=\"20261201T000000Z\" end=\"20261202T000000Z\"/>"))
        #expect(limited.status == 207)
        #expect(Self.todos(limited.text)["minutely.ics"]?.map { $0["RRULE"] } == ["FREQ=MINUTELY"])
    }
}

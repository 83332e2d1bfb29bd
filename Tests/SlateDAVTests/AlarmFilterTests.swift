import Foundation
import SlateCore
import Testing

/// calendar-query with a comp-filter nested in VTODO (RFC 4791 §9.7.1): a bare VALARM
/// filter asks for tasks with an alarm, a VALARM time-range for alarms that fire in it
/// (§9.9); a time-range this server does not evaluate is refused, never ignored.
@Suite("CalDAV: nested comp-filters are evaluated (VALARM) or refused")
struct AlarmFilterTests {
    func query(_ inner: String, outer: String = "") -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
            + "<d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VTODO\">\(inner)</c:comp-filter>"
            + "\(outer)</c:comp-filter></c:filter></c:calendar-query>"
    }

    func names(_ dav: DAVHarness, _ body: String) async throws -> [String] {
        let reply = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", headers: ["Depth": "1"], body: body)
        #expect(reply.status == 207, "\(reply.text)")
        return reply.text.components(separatedBy: "<d:href>/dav/calendars/ana/inbox/").dropFirst()
            .map { $0.components(separatedBy: ".ics</d:href>")[0] }.sorted()
    }

    static func alarm(_ trigger: String, extra: [String] = []) -> [String] {
        ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", trigger] + extra + ["END:VALARM"]
    }

    func seeded() async throws -> DAVHarness {
        let dav = try DAVHarness()
        let objects: [(String, [String])] = [
            ("fixed", ["DUE:20261207T100000Z"] + Self.alarm("TRIGGER;VALUE=DATE-TIME:20261205T090000Z")),
            ("plain", ["DUE:20261205T100000Z"]),
            ("lead", ["DUE:20261210T100000Z"] + Self.alarm("TRIGGER;RELATED=END:-PT15M")),
            // Daily from 1 December at 08:00; its alarm an hour before each start.
            ("daily", ["DTSTART:20261201T080000Z", "DUE:20261201T090000Z", "RRULE:FREQ=DAILY;COUNT=30"] + Self.alarm("TRIGGER:-PT1H")),
            // Repeats: 10:00, 10:30, 11:00 on 20 December.
            ("snooze", ["DUE:20261220T120000Z"] + Self.alarm("TRIGGER;VALUE=DATE-TIME:20261220T100000Z", extra: ["REPEAT:2", "DURATION:PT30M"])),
        ]
        for (uid, lines) in objects {
            #expect(try await dav.put("\(uid).ics", DAVHarness.todo(uid: uid, summary: uid, extra: lines)).status == 201)
        }
        return dav
    }

    @Test("A bare VALARM comp-filter returns the tasks with an alarm, not every task; is-not-defined the others")
    func bareAlarmFilter() async throws {
        let dav = try await seeded()
        #expect(try await names(dav, query("<c:comp-filter name=\"VALARM\"/>")) == ["daily", "fixed", "lead", "snooze"])
        #expect(try await names(dav, query("<c:comp-filter name=\"VALARM\"><c:is-not-defined/></c:comp-filter>")) == ["plain"])
    }

    @Test("A VALARM time-range matches the alarms that fire in it: absolute, relative to DUE or DTSTART, each instance, each repeat")
    func alarmTimeRange() async throws {
        let dav = try await seeded()
        func alarms(_ start: String, _ end: String) async throws -> [String] {
            try await names(dav, query("<c:comp-filter name=\"VALARM\"><c:time-range start=\"\(start)\" end=\"\(end)\"/></c:comp-filter>"))
        }
        #expect(try await alarms("20261205T000000Z", "20261206T000000Z") == ["daily", "fixed"])
        #expect(try await alarms("20261210T094000Z", "20261210T095000Z") == ["lead"])
        #expect(try await alarms("20261215T065900Z", "20261215T070100Z") == ["daily"])
        #expect(try await alarms("20261231T065900Z", "20261231T070100Z") == [])            // after COUNT=30
        #expect(try await alarms("20261220T105900Z", "20261220T110100Z") == ["snooze"])    // the second repeat
        #expect(try await alarms("20261220T110100Z", "20261220T120000Z") == [])
    }

    @Test("A time-range on a component it does not apply to is refused with CALDAV:supported-filter; on a VEVENT it finds none")
    func refusedTimeRange() async throws {
        let dav = try await seeded()
        let body = query("", outer: "<c:comp-filter name=\"VTIMEZONE\"><c:time-range start=\"20261201T000000Z\"/></c:comp-filter>")
        let reply = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", headers: ["Depth": "1"], body: body)
        #expect(reply.status == 403)
        #expect(reply.text.contains("supported-filter") && reply.text.contains("VTIMEZONE"))
        // On a VEVENT it is answered: a task list holds none (python-caldav's date_search asks this).
        let events = "<?xml version=\"1.0\" encoding=\"utf-8\"?><c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
            + "<d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VEVENT\">"
            + "<c:time-range start=\"19970414T000000Z\" end=\"20300514T000000Z\"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"
        #expect(try await names(dav, events) == [])
    }

    @Test("A malformed filter is refused with CALDAV:valid-filter, naming what is wrong")
    func malformedFilter() async throws {
        let dav = try await seeded()
        let head = "<?xml version=\"1.0\" encoding=\"utf-8\"?><c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/></d:prop>"
        for (filter, named) in [
            ("<c:filter/>", "comp-filter"),
            ("<c:filter><c:comp-filter/></c:filter>", "comp-filter needs a name"),
            ("<c:filter><c:comp-filter name=\"VCALENDAR\"><c:prop-filter/></c:comp-filter></c:filter>", "prop-filter needs a name"),
            ("<c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VTODO\"><c:time-range start=\"2026-12-01\"/></c:comp-filter></c:comp-filter></c:filter>", "time-range start"),
            ("<c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VTODO\"><c:time-range/></c:comp-filter></c:comp-filter></c:filter>", "a start or an end"),
        ] {
            let reply = try await dav.send("REPORT", "/dav/calendars/ana/inbox/", headers: ["Depth": "1"], body: head + filter + "</c:calendar-query>")
            #expect(reply.status == 403, "\(filter)")
            #expect(reply.text.contains("valid-filter") && reply.text.contains(named), "\(filter): \(reply.text)")
            #expect(!reply.text.contains("valid-calendar-data"), "\(filter)")
        }
    }
}

import Foundation
import SlateCore
import Testing

/// A due date moved in Slate (web app, CLI, API) on a task a client stored: the served
/// VTODO stays valid (DTSTART and DUE of one type, DTSTART ≤ DUE), keeps the client's TZID
/// text, and its alarms fire when Slate's alerts do; alarms Slate does not model stay.
@Suite("CalDAV: a due date changed in Slate rewrites DUE, DTSTART and the alarm triggers consistently")
struct DueChangeTests {
    static func object(_ body: [String], zones: [String] = []) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Test//EN"] + zones + ["BEGIN:VTODO", "UID:moved", "DTSTAMP:20261201T090000Z",
          "SUMMARY:Send the cue sheet"] + body + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    static let href = "/dav/calendars/ana/inbox/moved.ics"

    /// PUTs `stored`, moves the due date in Slate, returns what a client downloads next.
    func moved(_ stored: String, to due: DueDate?) async throws -> (DAVHarness, String) {
        let dav = try DAVHarness()
        #expect(try await dav.put("moved.ics", stored).status == 201)
        let slate = dav.slate()
        let task = try #require(try slate.tasks(TaskQuery(status: .all)).first)
        _ = try slate.updateTask(task.id, TaskPatch(due: .some(due)))
        return (dav, try await dav.send(.get, Self.href).text)
    }

    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("Alarms follow the moved due date: 1d@9:00, RELATED=END and start-relative triggers; the location alarm stays byte for byte")
    func alarmsFollowTheDueDate() async throws {
        let location = ["BEGIN:VALARM", "ACKNOWLEDGED:20261129T101500Z", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z",
                        "X-APPLE-PROXIMITY:ARRIVE", "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Studio\\\\nRue 1:geo:48.85,2.35",
                        "X-WR-ALARMUID:LOC1", "END:VALARM"]
        let stored = Self.object(["DTSTART:20261204T120000Z", "DUE:20261204T140000Z",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20261203T080000Z", "X-SLATE-ALERT:1d@09:00", "X-WR-ALARMUID:A1", "END:VALARM",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:PT1H", "X-MOZ-LASTACK:20261129T140500Z", "END:VALARM",
            "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT30M", "X-WR-ALARMUID:A3", "END:VALARM"] + location)
        let (dav, served) = try await moved(stored, to: DueDate(date: Self.at("2026-12-10T14:00:00Z"), isAllDay: false))
        let expected = stored
            .replacingOccurrences(of: "DTSTART:20261204T120000Z", with: "DTSTART:20261210T120000Z")
            .replacingOccurrences(of: "DUE:20261204T140000Z", with: "DUE:20261210T140000Z")
            // 9:00 Paris the day before the new due date.
            .replacingOccurrences(of: "TRIGGER;VALUE=DATE-TIME:20261203T080000Z", with: "TRIGGER;VALUE=DATE-TIME:20261209T080000Z")
            // An hour after the old due date was read as that moment; it stays that moment.
            .replacingOccurrences(of: "TRIGGER;RELATED=END:PT1H", with: "TRIGGER;VALUE=DATE-TIME:20261204T150000Z")
            // 30 minutes before the start, which moved with the due date: still right, kept.
        #expect(served.withoutVersionLines == expected.withoutVersionLines)
        #expect(served.contains(location.joined(separator: "\r\n") + "\r\n"))

        // Read back, the client's bytes give Slate the alerts it fires now.
        let slate = dav.slate()
        let before = try #require(try slate.tasks(TaskQuery(status: .all)).first)
        let etag = try await dav.send(.get, Self.href).headers["ETag"] ?? ""
        #expect(try await dav.put("moved.ics", served, headers: ["If-Match": etag]).status == 204)
        let after = try #require(try slate.tasks(TaskQuery(status: .all)).first)
        let fires = { (task: TaskItem) in task.alerts.compactMap { $0.fireDate(due: task.due, calendar: slate.calendar) }.sorted() }
        #expect(fires(after) == fires(before))
        #expect(fires(after) == [Self.at("2026-12-04T15:00:00Z"), Self.at("2026-12-09T08:00:00Z"), Self.at("2026-12-10T11:30:00Z")])
    }

    @Test("A start-relative alarm is read from DTSTART, as clients fire it, with or without a due date")
    func startRelativeAlarm() async throws {
        let dav = try DAVHarness()
        let timed = Self.object(["DTSTART:20261204T120000Z", "DUE:20261204T140000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT30M", "END:VALARM"])
        #expect(try await dav.put("moved.ics", timed).status == 201)
        let slate = dav.slate()
        var task = try #require(try slate.tasks(TaskQuery(status: .all)).first)
        #expect(task.alerts.compactMap { $0.fireDate(due: task.due, calendar: slate.calendar) } == [Self.at("2026-12-04T11:30:00Z")])
        #expect(task.alerts == [TaskAlert(.beforeDue(seconds: 9000))])
        let noDue = Self.object(["DTSTART:20261204T120000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT30M", "END:VALARM"])
        let etag = try await dav.send(.get, Self.href).headers["ETag"] ?? ""
        #expect(try await dav.put("moved.ics", noDue, headers: ["If-Match": etag]).status == 204)
        task = try #require(try slate.tasks(TaskQuery(status: .all)).first)
        #expect(task.alerts == [TaskAlert(.at(Self.at("2026-12-04T11:30:00Z")))])
    }

    @Test("Apple's DTSTART = DUE on a date-only task moves with it, and becomes a DATE-TIME when the due date gets a time")
    func appleDateOnly() async throws {
        let stored = Self.object(["DTSTART;VALUE=DATE:20261204", "DUE;VALUE=DATE:20261204", "X-APPLE-SORT-ORDER:12345"])
        let day = DateComponents(calendar: DAVHarness.calendar, year: 2026, month: 12, day: 8).date!
        let (_, moved) = try await moved(stored, to: DueDate(date: day, isAllDay: true))
        #expect(moved.withoutVersionLines == stored.replacingOccurrences(of: "20261204", with: "20261208").withoutVersionLines)
        let (_, timed) = try await self.moved(stored, to: DueDate(date: Self.at("2026-12-08T14:00:00Z"), isAllDay: false))
        #expect(timed.withoutVersionLines == stored.replacingOccurrences(of: "DTSTART;VALUE=DATE:20261204", with: "DTSTART:20261208T140000Z")
            .replacingOccurrences(of: "DUE;VALUE=DATE:20261204", with: "DUE:20261208T140000Z").withoutVersionLines)
    }

    @Test("A start day under a new timed due becomes a DATE-TIME; a start after the new due is brought to it; removing the due keeps a real start")
    func startStaysValid() async throws {
        // tasks.org: a start day three days before the due day; the due gets a time in Slate.
        let early = Self.object(["DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261204"])
        let (_, timed) = try await moved(early, to: DueDate(date: Self.at("2026-12-03T10:00:00Z"), isAllDay: false))
        #expect(timed.contains("\r\nDTSTART:20261130T230000Z\r\nDUE:20261203T100000Z\r\n"))   // midnight in Paris
        // A start with no due; Slate adds a due before it.
        let late = Self.object(["DTSTART:20261210T090000Z"])
        let (_, added) = try await moved(late, to: DueDate(date: Self.at("2026-12-05T09:00:00Z"), isAllDay: false))
        #expect(added.contains("\r\nDTSTART:20261205T090000Z\r\n") && added.contains("\r\nDUE:20261205T090000Z\r\n"))
        #expect(added.occurrences(of: "DTSTART") == 1)
        // A timed start kept as such when the due becomes a day: its day, not after the due.
        let timedStart = Self.object(["DTSTART:20261203T090000Z", "DUE:20261204T090000Z"])
        let day = DateComponents(calendar: DAVHarness.calendar, year: 2026, month: 12, day: 2).date!
        let (_, toDay) = try await moved(timedStart, to: DueDate(date: day, isAllDay: true))
        #expect(toDay.contains("\r\nDTSTART;VALUE=DATE:20261202\r\nDUE;VALUE=DATE:20261202\r\n"))
        // No due any more: a start of its own stays, a twin goes.
        let (_, cleared) = try await moved(early, to: nil)
        #expect(cleared.withoutVersionLines == early.replacingOccurrences(of: "DUE;VALUE=DATE:20261204\r\n", with: "").withoutVersionLines)
        let (_, twinCleared) = try await moved(Self.object(["DTSTART;VALUE=DATE:20261204", "DUE;VALUE=DATE:20261204"]), to: nil)
        #expect(!twinCleared.contains("DTSTART") && !twinCleared.contains("DUE"))
    }

    /// Thunderbird's long TZID and an Outlook-style name only the VTIMEZONE defines.
    static let berlin = ["BEGIN:VTIMEZONE", "TZID:/mozilla.org/20070129_1/Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000",
                         "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD", "BEGIN:DAYLIGHT",
                         "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
                         "END:DAYLIGHT", "END:VTIMEZONE"]

    @Test("The client's TZID text and its VTIMEZONE are kept when Slate moves DUE and DTSTART")
    func keepsTheClientsZone() async throws {
        for tzid in ["/mozilla.org/20070129_1/Europe/Berlin", "W. Europe Standard Time"] {
            let zone = Self.berlin.map { $0.hasPrefix("TZID:") ? "TZID:\(tzid)" : $0 }
            let stored = Self.object(["DTSTART;TZID=\(tzid):20261204T090000", "DUE;TZID=\(tzid):20261204T100000"], zones: zone)
            // 10:00 in Berlin on 6 December is 09:00 UTC.
            let (_, served) = try await moved(stored, to: DueDate(date: Self.at("2026-12-06T09:00:00Z"), isAllDay: false))
            #expect(served.withoutVersionLines == stored.replacingOccurrences(of: "20261204T", with: "20261206T").withoutVersionLines, "\(tzid)")
        }
    }
}

extension DAVHarness {
    /// The harness's calendar (Europe/Paris).
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        return calendar
    }
}

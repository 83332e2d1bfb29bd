import Foundation
import SlateCore
import Testing

/// A calendar-query time-range matches a repeating VTODO when one of its instances
/// overlaps the range (RFC 4791 §9.9 with RRULE expansion; bounds in `CalendarRecurrenceRange`).
@Suite("CalDAV: time-range queries expand repeating tasks")
struct RecurringTimeRangeTests {
    let reports = ReportTests()
    static let inbox = "/dav/calendars/ana/inbox/"

    /// The names of the resources a time-range query over [start, end) returns.
    func matching(_ dav: DAVHarness, _ start: String, _ end: String) async throws -> Set<String> {
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"],
                                       body: reports.query("<c:time-range start=\"\(start)\" end=\"\(end)\"/>"))
        #expect(reply.status == 207)
        return Set(reply.text.components(separatedBy: "<d:href>").dropFirst()
            .map { String($0.prefix { $0 != "<" }).replacingOccurrences(of: Self.inbox, with: "") })
    }

    @Test("Weekly, COUNT, UNTIL and DUE-only rules: an instance in the range matches, the days between and after the end do not")
    func plainRules() async throws {
        let dav = try DAVHarness()
        // 2026-12-01 is a Tuesday.
        try await dav.put("weekly.ics", DAVHarness.todo(uid: "weekly", summary: "Weekly", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY"]))
        try await dav.put("count.ics", DAVHarness.todo(uid: "count", summary: "Three times", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY;COUNT=3"]))
        try await dav.put("until.ics", DAVHarness.todo(uid: "until", summary: "Until mid-December", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY;UNTIL=20261215T090000Z"]))
        try await dav.put("dueonly.ics", DAVHarness.todo(uid: "dueonly", summary: "Monthly, due only", extra: [
            "DUE:20261201T100000Z", "RRULE:FREQ=MONTHLY"]))
        try await dav.put("plain.ics", DAVHarness.todo(uid: "plain", summary: "Once", extra: ["DUE:20261201T100000Z"]))

        #expect(try await matching(dav, "20261201T000000Z", "20261202T000000Z") == ["weekly.ics", "count.ics", "until.ics", "dueonly.ics", "plain.ics"])
        #expect(try await matching(dav, "20261215T000000Z", "20261216T000000Z") == ["weekly.ics", "count.ics", "until.ics"])
        #expect(try await matching(dav, "20261222T000000Z", "20261223T000000Z") == ["weekly.ics"])
        #expect(try await matching(dav, "20261223T000000Z", "20261229T000000Z") == [])
        #expect(try await matching(dav, "20270301T000000Z", "20270302T000000Z") == ["dueonly.ics"])
        // Years on: found without walking every instance from the start.
        #expect(try await matching(dav, "20460102T000000Z", "20460109T000000Z") == ["weekly.ics"])
        // An open end: the series goes on.
        let later = try await dav.send("REPORT", Self.inbox, body: reports.query("<c:time-range start=\"20300101T000000Z\"/>"))
        #expect(later.text.contains("weekly.ics") && !later.text.contains("count.ics") && !later.text.contains("plain.ics"))
    }

    @Test("EXDATE removes an instance, RDATE adds one, a RECURRENCE-ID override moves one (the override is matched where it now is)")
    func exceptions() async throws {
        let dav = try DAVHarness()
        try await dav.put("ex.ics", DAVHarness.todo(uid: "ex", summary: "Skips one", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY", "EXDATE:20261208T090000Z",
            "RDATE:20261210T090000Z"]))
        var moved = DAVHarness.todo(uid: "moved", summary: "One moved", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY"])
        moved = moved.replacingOccurrences(of: "END:VCALENDAR\r\n", with: [
            "BEGIN:VTODO", "UID:moved", "RECURRENCE-ID:20261215T090000Z", "DTSTAMP:20261201T090000Z", "SUMMARY:One moved",
            "DTSTART:20261217T090000Z", "DUE:20261217T100000Z", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n"))
        #expect(try await dav.put("moved.ics", moved).status == 201)

        #expect(try await matching(dav, "20261208T000000Z", "20261209T000000Z") == ["moved.ics"])
        #expect(try await matching(dav, "20261210T000000Z", "20261211T000000Z") == ["ex.ics"])
        #expect(try await matching(dav, "20261215T000000Z", "20261216T000000Z") == ["ex.ics"])
        #expect(try await matching(dav, "20261217T000000Z", "20261218T000000Z") == ["moved.ics"])
        #expect(try await matching(dav, "20261222T000000Z", "20261223T000000Z") == ["ex.ics", "moved.ics"])
    }

    @Test("Weekly BYDAY (with BYHOUR/BYMINUTE at the start's time), and a TZID start that keeps its wall-clock time across daylight saving time")
    func weekdaysAndZones() async throws {
        let dav = try DAVHarness()
        // From Tuesday 2026-12-01, on Mondays and Thursdays, four times: Tue 1, Thu 3, Mon 7, Thu 10
        // (BYHOUR and BYMINUTE repeat the start's time, as python-caldav writes them).
        try await dav.put("days.ics", DAVHarness.todo(uid: "days", summary: "Mondays and Thursdays", extra: [
            "DTSTART:20261201T090000Z", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=0;COUNT=4"]))
        // 09:00 in Paris: 08:00Z in winter, 07:00Z in summer.
        try await dav.put("paris.ics", DAVHarness.todo(uid: "paris", summary: "Paris mornings", extra: [
            "DTSTART;TZID=Europe/Paris:20261201T090000", "DUE;TZID=Europe/Paris:20261201T091500", "RRULE:FREQ=WEEKLY"]))

        #expect(try await matching(dav, "20261203T000000Z", "20261204T000000Z") == ["days.ics"])
        #expect(try await matching(dav, "20261207T000000Z", "20261208T000000Z") == ["days.ics"])
        #expect(try await matching(dav, "20261208T000000Z", "20261209T000000Z") == ["paris.ics"])
        #expect(try await matching(dav, "20261210T000000Z", "20261211T000000Z") == ["days.ics"])
        #expect(try await matching(dav, "20261214T000000Z", "20261215T000000Z") == [])  // after the fourth
        #expect(try await matching(dav, "20270706T065500Z", "20270706T071000Z") == ["paris.ics"])
        #expect(try await matching(dav, "20270706T074000Z", "20270706T081000Z") == [])
    }

    @Test("The bound: a rule with parts not expanded (BYMONTHDAY) matches wherever its series spans the range, never before its start or after its UNTIL")
    func notExpandedIsASuperset() async throws {
        let dav = try DAVHarness()
        try await dav.put("monthday.ics", DAVHarness.todo(uid: "monthday", summary: "On the 15th", extra: [
            "DTSTART:20261215T090000Z", "DUE:20261215T100000Z", "RRULE:FREQ=MONTHLY;BYMONTHDAY=15;UNTIL=20270615T090000Z"]))
        #expect(try await matching(dav, "20270115T000000Z", "20270116T000000Z") == ["monthday.ics"])
        #expect(try await matching(dav, "20270120T000000Z", "20270121T000000Z") == ["monthday.ics"])  // not an instance: the superset
        #expect(try await matching(dav, "20261201T000000Z", "20261202T000000Z") == [])
        #expect(try await matching(dav, "20270701T000000Z", "20270702T000000Z") == [])
    }
}

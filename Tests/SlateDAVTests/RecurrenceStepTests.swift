import Foundation
import SlateCore
import Testing

/// The next occurrence after a completed override is found by arithmetic, not by stepping
/// from the series' start: right for a series begun centuries ago and at month ends.
@Suite("CalDAV: the next occurrence of a long-running series")
struct RecurrenceStepTests {
    /// A Thunderbird-style series with one completed override on `completed`.
    func series(start: String, rule: String, completed: String) -> String {
        let master = DAVHarness.todo(uid: "old", summary: "Old habit", extra: ["DTSTART;VALUE=DATE:\(start)", "DUE;VALUE=DATE:\(start)", "RRULE:\(rule)"])
        let override = ["BEGIN:VTODO", "UID:old", "RECURRENCE-ID;VALUE=DATE:\(completed)", "DTSTAMP:20261201T190000Z", "SUMMARY:Old habit",
                        "DTSTART;VALUE=DATE:\(completed)", "DUE;VALUE=DATE:\(completed)", "STATUS:COMPLETED", "COMPLETED:\(completed)T180000Z",
                        "END:VTODO"]
        return master.replacingOccurrences(of: "END:VCALENDAR\r\n", with: override.joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n")
    }

    func nextDue(start: String, rule: String, completed: String) async throws -> String? {
        let dav = try DAVHarness()
        #expect(try await dav.put("old.ics", series(start: start, rule: rule, completed: completed)).status == 201)
        let open = try dav.slate().tasks(TaskQuery(status: .all)).filter { !$0.isCompleted && $0.title == "Old habit" }
        #expect(open.count == 1)
        return open.first?.due.map { date in
            let parts = DAVHarness.calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!)
        }
    }

    @Test("A daily series begun in 1700 (more than 100,000 days ago) moves to the day after the completed one")
    func centuriesOld() async throws {
        #expect(try await nextDue(start: "17000101", rule: "FREQ=DAILY", completed: "20261201") == "20261202")
        #expect(try await nextDue(start: "17000101", rule: "FREQ=DAILY;INTERVAL=3", completed: "20261201") == "20261204")
    }

    @Test("Monthly from the 31st and every other week step as the calendar does, far from the start too")
    func monthEnds() async throws {
        #expect(try await nextDue(start: "18000131", rule: "FREQ=MONTHLY", completed: "20261130") == "20261231")
        #expect(try await nextDue(start: "20260131", rule: "FREQ=MONTHLY", completed: "20260228") == "20260331")
        #expect(try await nextDue(start: "19000101", rule: "FREQ=WEEKLY;INTERVAL=2", completed: "20261130") == "20261214")
    }
}

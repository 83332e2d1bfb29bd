import Foundation
import SlateCore
import Testing

/// The alarms of a RECURRENCE-ID override (a completed occurrence a client keeps inside the
/// series' object) when a due date changes in Slate: they are never rewritten (see
/// `VTodoAlarms` for why); the master's alarms are.
@Suite("CalDAV: an override's alarms stay as stored when a due date changes in Slate")
struct OverrideAlarmTests {
    static let inbox = "/dav/calendars/ana/inbox/"
    static let href = inbox + "series.ics"

    /// A weekly series due at 10:00Z with an alert the day before at 9:00 (Paris), and the
    /// occurrence of 8 December completed, with an alarm of its own.
    static let stored = ([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Test//EN",
        "BEGIN:VTODO", "UID:series", "DTSTAMP:20261201T090000Z", "SUMMARY:Check the rushes", "DUE:20261201T100000Z", "RRULE:FREQ=WEEKLY",
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Check the rushes", "TRIGGER;VALUE=DATE-TIME:20261130T080000Z", "X-SLATE-ALERT:1d@09:00", "END:VALARM",
        "END:VTODO"] + override + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    static let override = [
        "BEGIN:VTODO", "UID:series", "RECURRENCE-ID:20261208T100000Z", "DTSTAMP:20261208T190000Z", "SUMMARY:Check the rushes",
        "DUE:20261208T100000Z", "STATUS:COMPLETED", "COMPLETED:20261208T180000Z", "PERCENT-COMPLETE:100",
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Check the rushes", "TRIGGER;VALUE=DATE-TIME:20261207T080000Z", "X-WR-ALARMUID:OCC1", "END:VALARM",
        "END:VTODO"]

    /// The lines of the override (from its BEGIN:VTODO to its END:VTODO) in `text`.
    static func overrideLines(_ text: String) -> [String] {
        let lines = text.components(separatedBy: "\r\n")
        guard let id = lines.firstIndex(of: "RECURRENCE-ID:20261208T100000Z"),
              let begin = lines[..<id].lastIndex(of: "BEGIN:VTODO"),
              let end = lines[id...].firstIndex(of: "END:VTODO") else { return [] }
        return Array(lines[begin...end])
    }

    func tasks(_ dav: DAVHarness) throws -> (series: TaskItem, done: TaskItem) {
        let all = try dav.slate().tasks(TaskQuery(status: .all)).filter { $0.title == "Check the rushes" }
        return (try #require(all.first { !$0.isCompleted }), try #require(all.first { $0.isCompleted }))
    }

    @Test("The series' due date moved in Slate: the master's alarm follows it, the override (its DUE and its alarm) stays byte for byte")
    func seriesMoved() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("series.ics", Self.stored).status == 201)
        let before = try await dav.send(.get, Self.href).text
        #expect(Self.overrideLines(before) == Self.override)
        let (series, _) = try tasks(dav)
        let due = try #require(series.due)
        let moved = due.addingTimeInterval(2 * 86_400)
        _ = try dav.slate().updateTask(series.id, TaskPatch(due: .some(DueDate(date: moved, isAllDay: false))))
        let after = try await dav.send(.get, Self.href).text
        #expect(after != before)
        #expect(Self.overrideLines(after) == Self.override)
        // The master's alarm fires the day before its new due date at 9:00 Paris (08:00Z).
        let day = ISO8601DateFormatter.string(from: moved.addingTimeInterval(-86_400), timeZone: TimeZone(identifier: "UTC")!,
                                              formatOptions: [.withYear, .withMonth, .withDay])
        #expect(after.contains("TRIGGER;VALUE=DATE-TIME:\(day)T080000Z\r\nX-SLATE-ALERT:1d@09:00"), "\(after)")
    }

    @Test("The completed occurrence's own due date moved in Slate: its DUE is rewritten, its alarm stays as stored")
    func occurrenceMoved() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("series.ics", Self.stored).status == 201)
        let (_, done) = try tasks(dav)
        _ = try dav.slate().updateTask(done.id, TaskPatch(due: .some(DueDate(date: ISO8601DateFormatter().date(from: "2026-12-09T10:00:00Z")!, isAllDay: false))))
        let after = Self.overrideLines(try await dav.send(.get, Self.href).text)
        #expect(after.contains("DUE:20261209T100000Z"))
        #expect(!after.contains("DUE:20261208T100000Z"))
        #expect(after.contains("TRIGGER;VALUE=DATE-TIME:20261207T080000Z"))
        #expect(Array(after.drop { $0 != "BEGIN:VALARM" }) == Array(Self.override.drop { $0 != "BEGIN:VALARM" }))
    }
}

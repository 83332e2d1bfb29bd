import Foundation
import SlateCore
import Testing

/// Alerts changed in Slate are written back into the stored VTODO as VALARMs: only the
/// alarm components change, and alarms Slate does not model stay byte for byte.
@Suite("CalDAV: alerts changed in Slate rewrite only the VALARMs")
struct AlarmWriteBackTests {
    static let href = "/dav/calendars/ana/inbox/alarms.ics"

    /// Thunderbird's 15-minute alarm (with X-MOZ state on the VTODO), Apple's acknowledged
    /// location alarm, and a folded description line that must keep its fold.
    static let stored = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Test//EN", "BEGIN:VTODO", "UID:alarms", "DTSTAMP:20261201T090000Z",
        "SUMMARY:Send the cue sheet", "DUE:20261204T140000Z", "X-MOZ-LASTACK:20261129T140500Z",
        "DESCRIPTION:A long description that is folded by the client at seventy-five o", " ctets exactly",
        "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DURATION:-PT15M", "DESCRIPTION:Default Mozilla Description",
        "X-MOZ-SNOOZE-TIME:20261203T140000Z", "END:VALARM",
        "BEGIN:VALARM", "ACKNOWLEDGED:20261129T101500Z", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z",
        "X-APPLE-PROXIMITY:ARRIVE", "X-WR-ALARMUID:1A2B", "END:VALARM",
        "END:VTODO", "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"

    func lines(_ text: String) -> [String] { text.components(separatedBy: "\r\n") }

    @Test("Adding an alert in Slate inserts one VALARM before END:VTODO; every other byte stays")
    func addAlert() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("alarms.ics", Self.stored).status == 201)
        let slate = dav.slate()
        let task = try #require(try slate.tasks(TaskQuery(status: .all)).first)
        #expect(task.alerts == [TaskAlert(.beforeDue(seconds: 900))])
        _ = try slate.updateTask(task.id, TaskPatch(alerts: [TaskAlert(.beforeDue(seconds: 900)), TaskAlert(.beforeDue(seconds: 86_400))]))
        let served = try await dav.send(.get, Self.href).text
        var expected = lines(Self.stored)
        let end = try #require(expected.lastIndex(of: "END:VTODO"))
        expected.insert(contentsOf: ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Send the cue sheet", "TRIGGER;RELATED=END:-P1D",
                                     "END:VALARM"], at: end)
        #expect(lines(served.withoutVersionLines) == lines(expected.joined(separator: "\r\n").withoutVersionLines))
    }

    @Test("Removing the alerts in Slate removes the time alarm only: the location alarm and the X-MOZ lines stay")
    func removeAlerts() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("alarms.ics", Self.stored).status == 201)
        let etag = try await dav.send(.get, Self.href).headers["ETag"]
        let slate = dav.slate()
        let task = try #require(try slate.tasks(TaskQuery(status: .all)).first)
        _ = try slate.updateTask(task.id, TaskPatch(alerts: []))
        let served = try await dav.send(.get, Self.href)
        #expect(served.headers["ETag"] != etag)
        let timeAlarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DURATION:-PT15M", "DESCRIPTION:Default Mozilla Description",
                         "X-MOZ-SNOOZE-TIME:20261203T140000Z", "END:VALARM"]
        let expected = Self.stored.replacingOccurrences(of: timeAlarm.joined(separator: "\r\n") + "\r\n", with: "")
        #expect(served.text.withoutVersionLines == expected.withoutVersionLines)
        // Read back by Slate: no alerts (the location alarm is not one).
        #expect(try await dav.put("alarms.ics", served.text, headers: ["If-Match": served.headers["ETag"] ?? ""]).status == 204)
        #expect(try slate.tasks(TaskQuery(status: .all)).first?.alerts == [])
    }

    @Test("A retitle alone leaves the alarms as they were; a task made in Slate is served with its alerts as VALARMs")
    func untouchedAndFresh() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("alarms.ics", Self.stored).status == 201)
        let slate = dav.slate()
        let task = try #require(try slate.tasks(TaskQuery(status: .all)).first)
        _ = try slate.updateTask(task.id, TaskPatch(title: "Send the cue sheets"))
        #expect(try await dav.send(.get, Self.href).text.withoutVersionLines
            == Self.stored.replacingOccurrences(of: "SUMMARY:Send the cue sheet\r\n", with: "SUMMARY:Send the cue sheets\r\n").withoutVersionLines)
        let made = try slate.addTask(TaskDraft(title: "Call the lab", due: DueDate(date: Date(timeIntervalSince1970: 1_796_000_000), isAllDay: false),
                                               alerts: [TaskAlert(.beforeDue(seconds: 3600))]))
        let fresh = try await dav.send(.get, "/dav/calendars/ana/inbox/\(made.id.uuidString).ics").text
        #expect(fresh.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Call the lab\r\nTRIGGER;RELATED=END:-PT1H\r\nEND:VALARM\r\nEND:VTODO"))
    }
}

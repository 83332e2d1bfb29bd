import Foundation
import SlateCore
import Testing

/// CalDAV reads and writes an account's dates in the account's own zone when it has one,
/// as its alerts are sent in, not in the server's (the harness's server is in Paris).
@Suite("CalDAV in the account's time zone")
struct AccountZoneTests {
    @Test("An alert at 9:00 on the day is 9:00 in the account's zone; a floating time is read there; the day stays the day")
    func accountZone() async throws {
        let dav = try DAVHarness()
        let account = try #require(dav.accounts["ana"])
        try AccountDirectory(container: dav.container).setTimeZone("America/New_York", for: account)
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = TimeZone(identifier: "America/New_York")!
        let slate = Slate(container: dav.container, accountID: account, calendar: newYork)
        let task = try slate.addTask(TaskDraft(title: "Return the lenses", due: DueDate(date: newYork.date(from: DateComponents(year: 2026, month: 12, day: 10))!, isAllDay: true),
                                               alerts: [try TaskAlert(parsing: "0d@09:00")]))
        let fresh = try await dav.send(.get, "/dav/calendars/ana/inbox/\(task.id.uuidString).ics")
        #expect(fresh.status == 200)
        #expect(fresh.text.contains("DUE;VALUE=DATE:20261210"))
        #expect(fresh.text.contains("TRIGGER;VALUE=DATE-TIME:20261210T140000Z"), "9:00 in New York is 14:00 UTC: \(fresh.text)")

        let put = try await dav.put("floating.ics", DAVHarness.todo(uid: "floating@example.com", summary: "Call the lab", extra: ["DUE:20261211T090000"]))
        #expect(put.status == 201)
        let called = try #require(try dav.slate().tasks().first { $0.title == "Call the lab" })
        #expect(called.due == Timestamp.parse("2026-12-11T14:00:00Z"), "a floating 09:00 is 09:00 in New York")

        // Another account without a zone keeps the server's.
        let other = try await dav.put("b.ics", DAVHarness.todo(uid: "b@example.com", summary: "Paris call", extra: ["DUE:20261211T090000"]), as: "ben")
        #expect(other.status == 201)
        #expect(try dav.slate("ben").tasks().first?.due == Timestamp.parse("2026-12-11T08:00:00Z"))
    }
}

import Foundation
import SlateCore
import Testing

/// A monthly repeat on the 31st goes 31 January → 28 February → 31 March in Slate. Its
/// RRULE says so (`BYMONTHDAY=-1`), so a client that steps the repeat itself lands where
/// Slate would, and a client's "last day of the month" is Slate's too.
@Suite("CalDAV: a monthly repeat at the month's end")
struct MonthEndRepeatTests {
    static let inbox = "/dav/calendars/ana/inbox/"

    func day(_ task: TaskItem?) -> String? { task?.dueCalendarDay.map { String($0.number) } }

    @Test("Slate's 28 February, cut from the 31st, is served as the last day; the client's step to 31 March is a completion")
    func aShortMonthIsServedAsTheLastDay() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        let january = DateComponents(calendar: DAVHarness.calendar, year: 2027, month: 1, day: 31).date!
        let rent = try slate.addTask(TaskDraft(title: "Pay the studio rent", due: DueDate(date: january, isAllDay: true),
                                               recurrence: Recurrence(.monthly)))
        let href = Self.inbox + rent.id.uuidString + ".ics"
        #expect(try await dav.send(.get, href).text.contains("\r\nRRULE:FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1\r\n"))

        _ = try slate.setCompleted([rent.id], true)
        let february = try #require(try slate.tasks().first { $0.title == "Pay the studio rent" && !$0.isCompleted })
        #expect(day(february) == "20270228" && february.recurrence == Recurrence(.monthly, dayOfMonth: 31))
        let served = try await dav.send(.get, Self.inbox + february.id.uuidString + ".ics")
        #expect(served.text.contains("\r\nDUE;VALUE=DATE:20270228\r\n"))
        #expect(served.text.contains("\r\nRRULE:FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1\r\n"))

        // Stored back as served, the task keeps its day.
        let etag = served.headers["ETag"] ?? ""
        #expect(try await dav.put(february.id.uuidString + ".ics", served.text, headers: ["If-Match": etag]).status == 204)
        let kept = try #require(try slate.tasks().first { $0.id == february.id })
        #expect(kept.recurrence == Recurrence(.monthly, dayOfMonth: 31) && day(kept) == "20270228")

        // The client completes it by stepping the rule itself: to 31 March, a completion.
        let again = try await dav.send(.get, Self.inbox + february.id.uuidString + ".ics")
        let stepped = again.text.replacingOccurrences(of: "20270228", with: "20270331")
        #expect(try await dav.put(february.id.uuidString + ".ics", stepped, headers: ["If-Match": again.headers["ETag"] ?? ""]).status == 204)
        let all = try slate.tasks(TaskQuery(status: .all)).filter { $0.title == "Pay the studio rent" }
        #expect(all.filter(\.isCompleted).compactMap(day).sorted() == ["20270131", "20270228"])
        let march = try #require(all.first { !$0.isCompleted })
        #expect(day(march) == "20270331" && march.recurrence == Recurrence(.monthly))
    }

    @Test("Thunderbird's last day of the month on the 30th of January steps to 28 February, then 31 March")
    func aClientsLastDayIsSlates() async throws {
        let dav = try DAVHarness()
        let text = DAVHarness.todo(uid: "invoice", summary: "Send the invoices",
                                   extra: ["DTSTART;VALUE=DATE:20270130", "DUE;VALUE=DATE:20270130", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1"])
        #expect(try await dav.put("invoice.ics", text).status == 201)
        let slate = dav.slate()
        var task = try #require(try slate.tasks().first)
        #expect(task.recurrence == Recurrence(.monthly, dayOfMonth: 31))
        var days: [String] = []
        for _ in 0..<2 {
            _ = try slate.setCompleted([task.id], true)
            task = try #require(try slate.tasks().first { !$0.isCompleted })
            days += [day(task)].compactMap { $0 }
        }
        #expect(days == ["20270228", "20270331"])
        // The next occurrence (a task of its own: the client's object is the completed one)
        // is served with the rule that says the last day.
        let next = try await dav.send(.get, Self.inbox + task.id.uuidString + ".ics").text
        #expect(next.contains("\r\nDUE;VALUE=DATE:20270331\r\n") && next.contains("\r\nRRULE:FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1\r\n"), "\(next)")
    }
}

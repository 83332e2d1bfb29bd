import Foundation
import SlateCore
import SlateStore
import Testing

/// What a sync-collection reports: only its own collection's changes; tokens older than
/// the kept history are refused; and how a TZID is read.
@Suite("CalDAV sync scope, sync history and time zones")
struct SyncScopeTests {
    let reports = ReportTests()

    func sync(_ dav: DAVHarness, _ collection: String, _ token: String) async throws -> DAVHarness.Reply {
        try await dav.send("REPORT", "/dav/calendars/ana/\(collection)/", body: reports.sync(token))
    }

    func listID(_ dav: DAVHarness, _ name: String) throws -> UUID {
        try #require(try dav.slate().listsWithoutCounts().first { $0.name == name }).id
    }

    @Test("A sync reports a task moved out as gone, and nothing of other lists' changes or deletions")
    func onlyThisCollection() async throws {
        let dav = try DAVHarness()
        for name in ["shoot", "edit"] { #expect(try await dav.send("MKCALENDAR", "/dav/calendars/ana/\(name)/").status == 201) }
        try await dav.put("moved.ics", DAVHarness.todo(uid: "moved", summary: "Moves to edit"), in: "shoot")
        try await dav.put("stays.ics", DAVHarness.todo(uid: "stays", summary: "Stays in shoot"), in: "shoot")
        try await dav.put("other.ics", DAVHarness.todo(uid: "other", summary: "Edit's own"), in: "edit")
        try await dav.put("gone.ics", DAVHarness.todo(uid: "gone", summary: "Deleted in edit"), in: "edit")
        let shootToken = try reports.token(try await sync(dav, "shoot", "").text)
        let editToken = try reports.token(try await sync(dav, "edit", "").text)

        let slate = dav.slate()
        let tasks = try slate.tasks(TaskQuery(status: .all))
        let id = { (title: String) in try #require(tasks.first { $0.title == title }).id }
        _ = try slate.updateTask(try id("Edit's own"), TaskPatch(title: "Edit's own, renamed"))
        try slate.deleteTasks([try id("Deleted in edit")])
        _ = try slate.updateTask(try id("Moves to edit"), TaskPatch(listID: .some(try listID(dav, "edit"))))

        let shoot = try await sync(dav, "shoot", shootToken).text
        #expect(shoot.occurrences(of: "<d:response>") == 1)
        #expect(shoot.contains("<d:href>/dav/calendars/ana/shoot/moved.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>"))
        let edit = try await sync(dav, "edit", editToken).text
        #expect(edit.occurrences(of: "<d:response>") == 3)
        #expect(edit.contains("/dav/calendars/ana/edit/moved.ics</d:href><d:propstat>"))
        #expect(edit.contains("/dav/calendars/ana/edit/other.ics</d:href><d:propstat>"))
        #expect(edit.contains("<d:href>/dav/calendars/ana/edit/gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>"))
        // The Inbox saw none of it.
        let inboxToken = shootToken
        #expect(try await sync(dav, "inbox", inboxToken).text.occurrences(of: "<d:response>") == 0)
    }

    @Test("A task moved away and back is reported where it is, and gone where it only passed through")
    func movedAwayAndBack() async throws {
        let dav = try DAVHarness()
        for name in ["a", "b"] { #expect(try await dav.send("MKCALENDAR", "/dav/calendars/ana/\(name)/").status == 201) }
        try await dav.put("t.ics", DAVHarness.todo(uid: "t", summary: "Wanders"), in: "a")
        let aToken = try reports.token(try await sync(dav, "a", "").text)
        let bToken = try reports.token(try await sync(dav, "b", "").text)
        let slate = dav.slate()
        let task = try #require(try slate.tasks(TaskQuery(status: .all)).first { $0.title == "Wanders" })
        _ = try slate.updateTask(task.id, TaskPatch(listID: .some(try listID(dav, "b"))))
        _ = try slate.updateTask(task.id, TaskPatch(listID: .some(try listID(dav, "a"))))
        let a = try await sync(dav, "a", aToken).text
        #expect(a.occurrences(of: "<d:response>") == 1 && a.contains("/a/t.ics</d:href><d:propstat>"))
        // b never held it at its token: nothing to report there.
        #expect(try await sync(dav, "b", bToken).text.occurrences(of: "<d:response>") == 0)
    }

    @Test("A token older than the kept history is 403 valid-sync-token, and older deleted names are forgotten")
    func syncHistory() async throws {
        let dav = try DAVHarness(syncHistory: 150)
        try await dav.put("old.ics", DAVHarness.todo(uid: "old", summary: "Deleted long ago"))
        #expect(try await dav.send(.delete, "/dav/calendars/ana/inbox/old.ics").status == 204)
        let oldID = try #require(try ModelContext(dav.container).fetch(FetchDescriptor<CalendarResource>()).first { $0.name == "old.ics" }).id
        let token = try reports.token(try await sync(dav, "inbox", "").text)
        let slate = dav.slate()
        for index in 1...140 { _ = try slate.addTask(TaskDraft(title: "Busy \(index)")) }
        // Still within the history: answered, with the deleted name.
        #expect(try await sync(dav, "inbox", token).status == 207)
        for index in 1...120 { _ = try slate.addTask(TaskDraft(title: "Busier \(index)")) }
        let refused = try await sync(dav, "inbox", token)
        #expect(refused.status == 403)
        #expect(refused.text.contains("valid-sync-token") && refused.text.contains("sync again from scratch"))
        // The next CalDAV write forgets the name of the resource deleted before the horizon.
        #expect(try ModelContext(dav.container).model(CalendarResource.self, id: oldID) != nil)
        try await dav.put("new.ics", DAVHarness.todo(uid: "new", summary: "New"))
        #expect(try ModelContext(dav.container).model(CalendarResource.self, id: oldID) == nil)
        // A fresh sync works and a token from it too.
        let fresh = try reports.token(try await sync(dav, "inbox", "").text)
        #expect(try await sync(dav, "inbox", fresh).status == 207)
    }

    static let westEurope = [
        "BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time",
        "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
        "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE",
    ]

    func object(uid: String, due: String, zone: [String]) -> String {
        var lines = DAVHarness.todo(uid: uid, summary: "Zoned \(uid)", extra: ["DUE;\(due)"]).components(separatedBy: "\r\n")
        lines.insert(contentsOf: zone, at: 3)
        return lines.joined(separator: "\r\n")
    }

    @Test("A TZID Foundation does not know is read from the object's VTIMEZONE (summer and winter); vendor prefixes are known zones")
    func vtimezone() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("s.ics", object(uid: "s", due: "TZID=W. Europe Standard Time:20260715T090000", zone: Self.westEurope)).status == 201)
        #expect(try await dav.put("w.ics", object(uid: "w", due: "TZID=W. Europe Standard Time:20260115T090000", zone: Self.westEurope)).status == 201)
        #expect(try await dav.put("m.ics", object(uid: "m", due: "TZID=/mozilla.org/20050126_1/America/New_York:20260715T090000", zone: [])).status == 201)
        let tasks = try dav.slate().tasks(TaskQuery(status: .all))
        let due = { (uid: String) in tasks.first { $0.title == "Zoned \(uid)" }?.due.map(BasicDateFormat.utc) }
        #expect(due("s") == "20260715T070000Z")
        #expect(due("w") == "20260115T080000Z")
        #expect(due("m") == "20260715T130000Z")
        // The bytes are kept as sent.
        #expect(try await dav.send(.get, "/dav/calendars/ana/inbox/s.ics").text == object(uid: "s", due: "TZID=W. Europe Standard Time:20260715T090000", zone: Self.westEurope))
    }

    @Test("An unknown TZID without a VTIMEZONE is refused, naming it, and nothing is written")
    func unknownZoneRefused() async throws {
        let dav = try DAVHarness()
        let reply = try await dav.put("u.ics", object(uid: "u", due: "TZID=Atlantis Standard Time:20260715T090000", zone: []))
        #expect(reply.status == 400)
        #expect(reply.text.contains("valid-calendar-data") && reply.text.contains("Atlantis Standard Time") && reply.text.contains("VTIMEZONE"))
        #expect(try dav.slate().tasks(TaskQuery(status: .all)).isEmpty)
    }
}

/// UTC date-times as iCalendar writes them, for comparing dues.
enum BasicDateFormat {
    static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }
}

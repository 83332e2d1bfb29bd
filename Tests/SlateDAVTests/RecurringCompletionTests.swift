import Foundation
import SlateCore
import Testing

/// Completing one occurrence of a repeating task, in each client's style, gives one completed
/// task and the series at its next occurrence in Slate, and no duplicate for the client.
@Suite("CalDAV: completing an occurrence of a repeating task, per client style")
struct RecurringCompletionTests {
    let reports = ReportTests()
    static let inbox = "/dav/calendars/ana/inbox/"

    func series(due: String, start: Bool = true, rule: String = "FREQ=WEEKLY") -> [String] {
        (start ? ["DTSTART;VALUE=DATE:\(due)"] : []) + ["DUE;VALUE=DATE:\(due)", "RRULE:\(rule)"]
    }

    /// Thunderbird's object: the master as it was, plus one completed override per day given.
    func thunderbird(completed days: [String], title: String = "Water the plants") -> String {
        var text = DAVHarness.todo(uid: "series", summary: title, extra: series(due: "20261201"))
        for day in days {
            let override = ["BEGIN:VTODO", "UID:series", "RECURRENCE-ID;VALUE=DATE:\(day)", "DTSTAMP:20261201T190000Z",
                            "SUMMARY:\(title)", "DTSTART;VALUE=DATE:\(day)", "DUE;VALUE=DATE:\(day)", "STATUS:COMPLETED",
                            "COMPLETED:\(day)T180000Z", "PERCENT-COMPLETE:100", "X-MOZ-LASTACK:\(day)T180000Z", "END:VTODO"]
            text = text.replacingOccurrences(of: "END:VCALENDAR\r\n", with: override.joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n")
        }
        return text
    }

    func tasks(_ dav: DAVHarness, _ title: String) throws -> [TaskItem] {
        try dav.slate().tasks(TaskQuery(status: .all)).filter { $0.title == title }
    }

    func day(_ date: Date?) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        return date.map { BasicDateFormat.utc($0) }.flatMap { _ in
            let parts = calendar.dateComponents([.year, .month, .day], from: date!)
            return String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!)
        }
    }

    func responses(_ text: String) -> [String] {
        text.components(separatedBy: "<d:href>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test("Thunderbird: a RECURRENCE-ID override marked completed → one completed task + the series at its next occurrence; the client gets its bytes back and nothing else")
    func thunderbirdOverride() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("series.ics", thunderbird(completed: [])).status == 201)
        let token = try reports.token(try await dav.send("REPORT", Self.inbox, body: reports.sync("")).text)

        let sent = thunderbird(completed: ["20261201"])
        let put = try await dav.put("series.ics", sent)
        #expect(put.status == 204)
        var plants = try tasks(dav, "Water the plants")
        #expect(plants.count == 2)
        let done = try #require(plants.first { $0.isCompleted })
        let open = try #require(plants.first { !$0.isCompleted })
        #expect(day(done.due) == "20261201" && done.recurrence == nil)
        #expect(day(open.due) == "20261208" && open.recurrence == Recurrence(.weekly))

        // What the client gets back: its own bytes, under the ETag the PUT gave, and no other resource.
        let got = try await dav.send(.get, Self.inbox + "series.ics")
        #expect(got.text == sent && got.headers["ETag"] == put.headers["ETag"])
        let sync = try await dav.send("REPORT", Self.inbox, body: reports.sync(token))
        #expect(responses(sync.text) == [Self.inbox + "series.ics"])
        let listing = try await dav.propfind(Self.inbox, depth: "1", ["d:getetag"])
        #expect(listing.text.occurrences(of: "<d:response>") == 2)  // the collection and the series

        // The next occurrence completed the same way: two completed, the series a week on.
        #expect(try await dav.put("series.ics", thunderbird(completed: ["20261201", "20261208"])).status == 204)
        plants = try tasks(dav, "Water the plants")
        #expect(plants.filter(\.isCompleted).count == 2)
        #expect(plants.filter { !$0.isCompleted }.map { day($0.due) } == ["20261215"])

        // A completed occurrence retitled in Slate: only its override's SUMMARY changes, and the series' ETag moves.
        let before = try await dav.send(.get, Self.inbox + "series.ics")
        _ = try dav.slate().updateTask(done.id, TaskPatch(title: "Watered"))
        let after = try await dav.send(.get, Self.inbox + "series.ics")
        #expect(after.headers["ETag"] != before.headers["ETag"])
        let changed = zip(before.text.withoutVersionLines.components(separatedBy: "\r\n"), after.text.withoutVersionLines.components(separatedBy: "\r\n"))
            .filter { $0 != $1 }
        #expect(changed.count == 1 && changed.first?.1 == "SUMMARY:Watered")
        let later = try await dav.send("REPORT", Self.inbox, body: reports.sync(try reports.token(sync.text)))
        #expect(responses(later.text) == [Self.inbox + "series.ics"])

        // Deleting the series (as Thunderbird does) takes its occurrences with it.
        #expect(try await dav.send(.delete, Self.inbox + "series.ics").status == 204)
        #expect(try dav.slate().tasks(TaskQuery(status: .all)).isEmpty)
    }

    @Test("Thunderbird, on a repeating subtask: the completed occurrence is a subtask of the same parent, whose revision and count move with it")
    func thunderbirdOverrideOfASubtask() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("parent.ics", DAVHarness.todo(uid: "parent", summary: "Garden")).status == 201)
        let child = { (days: [String]) in
            thunderbird(completed: days).replacingOccurrences(of: "SUMMARY:Water the plants\r\nDTSTART", with: "SUMMARY:Water the plants\r\nRELATED-TO;RELTYPE=PARENT:parent\r\nDTSTART")
        }
        #expect(try await dav.put("series.ics", child([])).status == 201)
        let parent = try #require(try tasks(dav, "Garden").first)
        #expect(try dav.slate().subtaskCounts(of: [parent.id])[parent.id] == SubtaskCount(active: 1, total: 1))
        let before = try dav.slate().task(id: parent.id).revision
        let since = try dav.slate().revision()

        #expect(try await dav.put("series.ics", child(["20261201"])).status == 204)
        let plants = try tasks(dav, "Water the plants")
        #expect(plants.count == 2 && plants.allSatisfy { $0.parentID == parent.id })
        #expect(try dav.slate().subtaskCounts(of: [parent.id])[parent.id] == SubtaskCount(active: 1, total: 2))
        #expect(try dav.slate().task(id: parent.id).revision > before, "the parent is part of the change")
        #expect(try dav.slate().changes(since: since).tasks.contains { $0.id == parent.id })

        // The client drops the override: the occurrence goes, and the parent moves again.
        let afterDone = try dav.slate().task(id: parent.id).revision
        #expect(try await dav.put("series.ics", child([])).status == 204)
        #expect(try dav.slate().subtaskCounts(of: [parent.id])[parent.id] == SubtaskCount(active: 1, total: 1))
        #expect(try dav.slate().task(id: parent.id).revision > afterDone)
    }

    @Test("tasks.org: DUE moved to the next occurrence on the same VTODO → a completed copy + the series moved; the client's next sync brings the copy")
    func tasksOrgMove() async throws {
        let dav = try DAVHarness()
        let first = DAVHarness.todo(uid: "report", summary: "Weekly report", extra: series(due: "20261204", start: false))
        #expect(try await dav.put("report.ics", first).status == 201)
        let token = try reports.token(try await dav.send("REPORT", Self.inbox, body: reports.sync("")).text)
        let moved = first.replacingOccurrences(of: "20261204", with: "20261211")
        #expect(try await dav.put("report.ics", moved).status == 204)
        let reports = try tasks(dav, "Weekly report")
        #expect(reports.count == 2)
        let done = try #require(reports.first { $0.isCompleted })
        let open = try #require(reports.first { !$0.isCompleted })
        #expect(day(done.due) == "20261204" && done.recurrence == nil)
        #expect(day(open.due) == "20261211" && open.recurrence != nil)
        #expect(try await dav.send(.get, Self.inbox + "report.ics").text == moved)

        let sync = try await dav.send("REPORT", Self.inbox, body: self.reports.sync(token))
        let copy = Self.inbox + done.id.uuidString + ".ics"
        #expect(Set(responses(sync.text)) == [Self.inbox + "report.ics", copy])
        let copyText = try await dav.send(.get, copy).text
        #expect(copyText.contains("STATUS:COMPLETED") && !copyText.contains("RRULE") && copyText.contains("DUE;VALUE=DATE:20261204"))

        // Editing the title, or moving the due date by two weeks, is not a completion.
        #expect(try await dav.put("report.ics", moved.replacingOccurrences(of: "SUMMARY:Weekly report", with: "SUMMARY:Weekly report")
            .replacingOccurrences(of: "20261211", with: "20261225")).status == 204)
        #expect(try tasks(dav, "Weekly report").count == 2)
    }

    @Test("Apple: a completed copy with a new UID, then the original moved on → one completed, one next; no copy of Slate's")
    func appleCopyThenMove() async throws {
        let dav = try DAVHarness()
        let original = DAVHarness.todo(uid: "plants", summary: "Water the plants", extra: series(due: "20261201"))
        #expect(try await dav.put("plants.ics", original).status == 201)
        let token = try reports.token(try await dav.send("REPORT", Self.inbox, body: reports.sync("")).text)
        let copy = DAVHarness.todo(uid: "copy-1", summary: "Water the plants",
                                   extra: ["DUE;VALUE=DATE:20261201", "STATUS:COMPLETED", "COMPLETED:20261201T180000Z"])
        #expect(try await dav.put("copy-1.ics", copy).status == 201)
        #expect(try await dav.put("plants.ics", original.replacingOccurrences(of: "20261201", with: "20261208")).status == 204)
        let plants = try tasks(dav, "Water the plants")
        #expect(plants.count == 2)
        #expect(plants.filter(\.isCompleted).map { day($0.due) } == ["20261201"])
        #expect(plants.filter { !$0.isCompleted }.map { day($0.due) } == ["20261208"])
        let sync = try await dav.send("REPORT", Self.inbox, body: reports.sync(token))
        #expect(Set(responses(sync.text)) == [Self.inbox + "plants.ics", Self.inbox + "copy-1.ics"])
    }

    @Test("Apple, the other order: the move first (Slate keeps a copy), then Apple's copy replaces it; the client sees Slate's copy gone")
    func appleMoveThenCopy() async throws {
        let dav = try DAVHarness()
        let original = DAVHarness.todo(uid: "plants", summary: "Water the plants", extra: series(due: "20261201"))
        #expect(try await dav.put("plants.ics", original).status == 201)
        #expect(try await dav.put("plants.ics", original.replacingOccurrences(of: "20261201", with: "20261208")).status == 204)
        let kept = try #require(try tasks(dav, "Water the plants").first { $0.isCompleted })
        let token = try reports.token(try await dav.send("REPORT", Self.inbox, body: reports.sync("")).text)
        let copy = DAVHarness.todo(uid: "copy-1", summary: "Water the plants",
                                   extra: ["DUE;VALUE=DATE:20261201", "STATUS:COMPLETED", "COMPLETED:20261201T180000Z"])
        #expect(try await dav.put("copy-1.ics", copy).status == 201)
        let plants = try tasks(dav, "Water the plants")
        #expect(plants.count == 2 && plants.filter(\.isCompleted).count == 1)
        #expect(!plants.contains { $0.id == kept.id })
        let sync = try await dav.send("REPORT", Self.inbox, body: reports.sync(token))
        #expect(sync.text.contains("<d:href>\(Self.inbox)\(kept.id.uuidString).ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>"))
        #expect(responses(sync.text).contains(Self.inbox + "copy-1.ics"))
    }
}

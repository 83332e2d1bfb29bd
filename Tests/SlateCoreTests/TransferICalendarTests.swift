import Foundation
@testable import SlateCore
import Testing

@Suite struct TransferICalendarTests {
    @Test func exportThenImportKeepsWhatAVTODOCarries() throws {
        let (source, clock) = try makeSlate()
        let board = try TransferBoard(source, clock)
        let (target, _) = try makeSlate(at: clock)
        let summary = try target.importData(try source.export(.ics), format: nil)
        #expect(summary == ImportSummary(listsCreated: 2, tasksCreated: 6, tasksUpdated: 0))

        // Not carried: numbers and list ids. (Every date of the board is a whole second.)
        let expected = try portableTasks(source)
        let actual = try portableTasks(target)
        #expect(actual.map(\.task) == expected.map(\.task))
        #expect(actual.map(\.list) == expected.map(\.list))
        #expect(try target.lists().map(\.list.name) == ["Story", "Big Shoot"])
        let lists = try target.lists().map(\.list)
        #expect(lists.map(\.color) == [board.story.color, board.bigShoot.color])
        #expect(lists.map(\.icon) == ["book", "film"] && lists.map(\.order) == [1, 2])
        #expect(try target.task(id: board.scene.id).model.parentID == board.outline.id)
    }

    @Test func aVTODOIsWrittenTheWayCalDAVClientsExpect() throws {
        let (slate, clock) = try makeSlate()
        let board = try TransferBoard(slate, clock)
        let text = String(decoding: try slate.export(.ics), as: UTF8.self)
        let outlineUID = board.outline.id.uuidString
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Slate//Slate task manager//EN\r\nCALSCALE:GREGORIAN\r\n"))
        #expect(text.contains("X-SLATE-LIST;X-SLATE-COLOR=#FF6B6B;X-SLATE-ICON=book;X-SLATE-ORDER=1:Story\r\n"))
        let outline = """
            BEGIN:VTODO\r
            UID:\(outlineUID)\r
            DTSTAMP:20261129T101803Z\r
            CREATED:20261129T091600Z\r
            LAST-MODIFIED:20261129T091600Z\r
            SUMMARY:Write Act 2 outline\r
            DESCRIPTION:Woody\\; the museum\\, subplot\\nSecond line with a \\\\ backslash\r
            DTSTART;VALUE=DATE:20261127\r
            DUE;VALUE=DATE:20261127\r
            PRIORITY:1\r
            X-SLATE-PRIORITY:critical\r
            STATUS:NEEDS-ACTION\r
            CATEGORIES:writing,act-2\r
            RRULE:FREQ=WEEKLY;INTERVAL=2\r
            X-APPLE-SORT-ORDER:1\r
            X-SLATE-FLAGGED:TRUE\r
            X-SLATE-LIST:Story\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:Write Act 2 outline\r
            TRIGGER;RELATED=END:-PT15M\r
            END:VALARM\r
            END:VTODO\r

            """
        #expect(text.contains(outline))
        #expect(text.contains("UID:\(board.scene.id.uuidString)\r\n"))
        #expect(text.contains("DUE:20261201T083000Z\r\n"), "a timed due date in UTC")
        #expect(text.contains("RELATED-TO;RELTYPE=PARENT:\(outlineUID)\r\n"))
        #expect(text.contains("X-APPLE-SORT-ORDER:2\r\nX-SLATE-ORDER:1.5\r\n"), "the whole order for Apple, the exact one for Slate")
        #expect(text.contains("STATUS:COMPLETED\r\nCOMPLETED:20261129T101803Z\r\nPERCENT-COMPLETE:100\r\n"))
        #expect(text.contains("PRIORITY:5\r\nX-SLATE-PRIORITY:medium\r\n") && text.contains("PRIORITY:9\r\nX-SLATE-PRIORITY:low\r\n"))
        #expect(text.hasSuffix("END:VTODO\r\nEND:VCALENDAR\r\n"))

        let bytes = Array(text.utf8)
        #expect(!zip(bytes.dropFirst(), bytes).contains { $0 == 0x0A && $1 != 0x0D }, "every line ends in CRLF")
        for line in text.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75, "folded at 75 octets: \(line)")
        }
    }

    @Test func foldingSplitsBetweenCharactersNeverInsideOne() throws {
        // 74 ASCII octets then "é" (2 octets): the fold cannot fall after the first byte of é.
        let line = "SUMMARY:" + String(repeating: "a", count: 66) + "é" + String(repeating: "☕", count: 30)
        let folded = ICalendarText.fold(line)
        let physical = folded.components(separatedBy: "\r\n").dropLast()
        #expect(physical.first == "SUMMARY:" + String(repeating: "a", count: 66), "74 octets: é would end past 75")
        #expect(physical.allSatisfy { $0.utf8.count <= 75 })
        #expect(physical.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(physical.dropFirst().first == " é" + String(repeating: "☕", count: 24), "a space and 74 octets")
        let unfolded = ICalendarText.unfold(Data(folded.utf8))
        #expect(unfolded.count == 1 && String(decoding: unfolded[0].bytes, as: UTF8.self) == line)
    }

    @Test func escapingRoundTrips() throws {
        let text = "a;b,c\\d\ne\r\nf"
        #expect(ICalendarText.escape(text) == "a\\;b\\,c\\\\d\\ne\\nf")
        #expect(ICalendarText.unescape(ICalendarText.escape(text)) == "a;b,c\\d\ne\nf")
        #expect(ICalendarText.unescapeList("x\\,y,z,w\\\\") == ["x,y", "z", "w\\"])

        let (source, clock) = try makeSlate()
        let list = try source.createList(name: "Odd; name, with\\slash")
        try source.addTask(TaskDraft(title: "One, two; three \\ four", notes: "line 1\nline 2", listID: list.id, tags: ["a,b"]))
        let (target, _) = try makeSlate(at: clock)
        try target.importData(try source.export(.ics), format: .ics)
        let task = try #require(try target.tasks().first)
        #expect(task.title == "One, two; three \\ four" && task.notes == "line 1\nline 2" && task.tags == ["a,b"])
        #expect(try target.lists().map(\.list.name) == ["Odd; name, with\\slash"])
    }

    @Test func readsWhatOtherClientsWrite() throws {
        let (slate, clock) = try makeSlate()
        let long = String(repeating: "long summary ", count: 10)
        // Bare LF, a long unfolded line, a fold that splits "é" (C3 A9) across lines, a
        // VTIMEZONE and a VEVENT to ignore, TZID, floating and UTC times, non-UUID UIDs.
        var bytes = Array("""
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Apple Inc.//iOS 18//EN
            X-WR-CALNAME:Groceries
            X-APPLE-CALENDAR-COLOR:#FF2968FF
            BEGIN:VTIMEZONE
            TZID:America/New_York
            BEGIN:STANDARD
            DTSTART:19701101T020000
            TZOFFSETFROM:-0400
            TZOFFSETTO:-0500
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:event-1
            SUMMARY:Not a task
            DTSTART:20261201T100000Z
            END:VEVENT
            BEGIN:VTODO
            UID:parent-task@example.com
            SUMMARY:\(long)
            DUE;TZID=America/New_York:20261201T090000
            PRIORITY:3
            X-UNKNOWN-THING;FOO=bar:kept out
            RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;VALUE=DATE-TIME:20261201T133000Z
            END:VALARM
            END:VTODO
            BEGIN:VTODO
            UID:child-task@example.com
            SUMMARY:Caf
            """.utf8)
        bytes += [0xC3, 0x0A, 0x20, 0xA9] + Array(" au lait\n".utf8)
        bytes += Array("""
            RELATED-TO:parent-task@example.com
            DUE:20261202T101500
            PRIORITY:7
            STATUS:COMPLETED
            COMPLETED:20261128T120000Z
            CATEGORIES:Shop,Dairy
            CATEGORIES:urgent
            END:VTODO
            BEGIN:VTODO
            UID:3
            SUMMARY:UTC with no list
            DUE:20261203T070000Z
            X-SLATE-LIST:Errands
            END:VTODO
            END:VCALENDAR
            """.utf8)
        let summary = try slate.importData(Data(bytes), format: nil)
        #expect(summary == ImportSummary(listsCreated: 2, tasksCreated: 3, tasksUpdated: 0))

        let tasks = try slate.tasks(TaskQuery(sort: .due))
        #expect(tasks.map(\.title) == [long.trimmingCharacters(in: .whitespaces), "Café au lait", "UTC with no list"])
        let groceries = try #require(try slate.list(named: "Groceries"))
        #expect(groceries.color == "#FF2968")
        let first = tasks[0], second = tasks[1], third = tasks[2]
        #expect(first.due == date(2026, 12, 1, 15) && !first.isAllDay, "09:00 in New York is 15:00 in Paris")
        #expect(first.priority == .high && first.recurrence == Recurrence(.monthly, interval: 3) && first.listID == groceries.id)
        #expect(first.alerts.compactMap { $0.fireDate(due: first.due, calendar: testCalendar) } == [date(2026, 12, 1, 14, 30)],
                "an absolute trigger 30 minutes before the due time")
        #expect(first.id == ICalendarFormat.uuid(forUID: "parent-task@example.com"))
        #expect(second.parentID == first.id && second.priority == .low && second.tags == ["shop", "dairy", "urgent"])
        #expect(second.due == date(2026, 12, 2, 10, 15), "a floating time is local time")
        #expect(second.isCompleted && second.completedAt == date(2026, 11, 28, 13))
        let errands = try #require(try slate.list(named: "Errands"))
        #expect(third.due == date(2026, 12, 3, 8) && third.listID == errands.id)
        #expect(first.created == clock.now)

        let again = try slate.importData(Data(bytes), format: .ics)
        #expect(again == ImportSummary(listsCreated: 0, tasksCreated: 0, tasksUpdated: 0), "UIDs that are not UUIDs still match: nothing to write")
    }

    @Test(arguments: [
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:ok", "END:VTODO", "BEGIN:VTODO", "SUMMARY:bad",
          "DUE;VALUE=DATE:20261301", "END:VTODO", "END:VCALENDAR"], "line 7: DUE has an invalid date '20261301'"),
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:no end", "END:VCALENDAR"],
         "line 4: END:VCALENDAR does not close BEGIN:VTODO (line 2)."),
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:x"], "line 2: BEGIN:VTODO is never closed by END:VTODO."),
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "DESCRIPTION:no summary", "END:VTODO", "END:VCALENDAR"],
         "line 2: The title cannot be blank."),
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:x", "DUE;TZID=Mars/Olympus:20261201T090000", "END:VTODO", "END:VCALENDAR"],
         "line 4: DUE has an unknown time zone 'Mars/Olympus'"),
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:x", "PRIORITY:high", "END:VTODO", "END:VCALENDAR"],
         "line 4: PRIORITY must be a number from 0 to 9; got 'high'"),
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:x", "RRULE:FREQ=HOURLY", "END:VTODO", "END:VCALENDAR"],
         "line 4: RRULE has the frequency 'HOURLY'; Slate repeats DAILY, WEEKLY, MONTHLY or YEARLY"),
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:x", "RELATED-TO:nowhere", "END:VTODO", "END:VCALENDAR"],
         "line 4: RELATED-TO names no task in the file or the database: '\(ICalendarFormat.uuid(forUID: "nowhere").uuidString.lowercased())'"),
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:x", "this is not a property", "END:VTODO", "END:VCALENDAR"],
         "line 4: 'this is not a property' is not an iCalendar line (NAME:value)."),
    ])
    func aMalformedFileChangesNothingAndNamesTheLine(lines: [String], message: String) throws {
        let (slate, clock) = try makeSlate()
        _ = try TransferBoard(slate, clock)
        let error = try expectImportFails(slate, data(lines, separator: "\r\n"), format: .ics)
        #expect(error?.description == message)
    }
}

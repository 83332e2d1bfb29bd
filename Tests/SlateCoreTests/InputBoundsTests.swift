import Foundation
@testable import SlateCore
import Testing

/// Input that once crashed or silently bent Slate: each is refused with a clear error, or
/// handled without recursion that the input controls.
@Suite struct InputBoundsTests {
    @Test func deeplyNestedICalendarComponentsAreRefusedNamingTheLine() throws {
        let (slate, _) = try makeSlate()
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0"]
        lines += Array(repeating: "BEGIN:X", count: 50_000)
        lines += Array(repeating: "END:X", count: 50_000)
        lines.append("END:VCALENDAR")
        let error = try expectImportFails(slate, data(lines, separator: "\r\n"), format: nil)
        // Line 1 is VCALENDAR (depth 1); the component opened on line 34 is the 33rd level.
        #expect(error?.location == .line(34))
        #expect(error?.message == "BEGIN:X is nested 33 components deep; at most \(ICalendarText.maximumDepth) are allowed.")
    }

    @Test func nestingUpToTheLimitIsRead() throws {
        let inner = ICalendarText.maximumDepth - 1
        var lines = ["BEGIN:VCALENDAR"]
        lines += Array(repeating: "BEGIN:X-DEEP", count: inner)
        lines += Array(repeating: "END:X-DEEP", count: inner)
        lines.append("END:VCALENDAR")
        let roots = try ICalendarText.parse(data(lines))
        #expect(roots.count == 1 && roots[0].components.count == 1)
    }
}

@Suite struct ControlCharacterTests {
    @Test func aNULOrOtherControlCharacterInATitleNameOrTagIsRefused() throws {
        let (slate, _) = try makeSlate()
        #expect(throws: SlateError.invalid(
            field: "title", message: "The title contains the control character U+0000; only printable text is accepted.")) {
            try slate.addTask(TaskDraft(title: "Budget\u{0}hidden"))
        }
        #expect(throws: SlateError.invalid(
            field: "name", message: "The list name contains the control character U+001B; only printable text is accepted.")) {
            try slate.createList(name: "Sound\u{1B}[31m")
        }
        #expect(throws: SlateError.invalid(
            field: "tags", message: "A tag contains the control character U+0001; only printable text is accepted.")) {
            try slate.addTask(TaskDraft(title: "Tagged", tags: ["ok", "bad\u{1}"]))
        }
        #expect(throws: SlateError.invalid(
            field: "notes",
            message: "The notes contain the control character U+0000; only printable text is accepted (line breaks and tabs are fine).")) {
            try slate.addTask(TaskDraft(title: "Noted", notes: "a\u{0}b"))
        }
        let task = try slate.addTask(TaskDraft(title: "Noted", notes: "line\n\tindented\r\nend"))
        #expect(task.notes == "line\n\tindented\r\nend")
        #expect(throws: SlateError.self) { try slate.updateTask(task.id, TaskPatch(title: "x\u{7F}")) }
        #expect(try slate.count() == 1)
    }

    @Test func aTodoTxtLineWithANULIsRefusedNamingTheLine() throws {
        let (slate, _) = try makeSlate()
        let error = try expectImportFails(slate, Data("Buy milk\nCall\u{0}Bob +Home\n".utf8), format: .todotxt)
        #expect(error?.location == .line(2))
        #expect(error?.message.contains("U+0000") == true)
    }
}

@Suite struct StrictDateTests {
    /// Each was once read as a different date: year 0 as year 1, a leap second as the next
    /// minute, an offset of 99 hours 99 minutes as a real one.
    @Test(arguments: ["0000-01-01T10:00:00Z", "2026-12-01T10:00:60Z", "2026-12-01T10:00:00+99:99",
                      "2026-12-01T10:00:00+05:60", "2026-12-01T10:00:00-19:00"])
    func aMomentThatWouldBeChangedIsRefused(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func theWidestRealFormsStillRead() {
        #expect(Timestamp.parse("0001-01-01T00:00:00Z") != nil)
        #expect(Timestamp.parse("2026-12-01T10:00:59.999+14:00") != nil)
        #expect(Timestamp.parse("2026-12-01T10:00:00-18:00") != nil)
        #expect(Timestamp.parseDay("0001-01-01", calendar: testCalendar) != nil)
        #expect(Timestamp.parseDay("0000-01-01", calendar: testCalendar) == nil)
        #expect(BasicDate.parseMoment("20261201T100060Z", local: testCalendar) == nil)
        #expect(BasicDate.parseDay("00000101", calendar: testCalendar) == nil)
    }

    @Test func importsNameTheFieldOfADateTheyRefuse() throws {
        let (slate, _) = try makeSlate()
        let json = try expectImportFails(slate, Data(#"{"format":"slate","tasks":[{"title":"a","due":"0000-01-01"}]}"#.utf8), format: .json)
        #expect(json?.description == "task 1: due has an invalid date '0000-01-01'")
        let offset = try expectImportFails(
            slate, Data(#"{"format":"slate","tasks":[{"title":"a","created":"2026-12-01T10:00:00+99:99"}]}"#.utf8), format: .json)
        #expect(offset?.field == "created")
        let ics = try expectImportFails(slate, data([
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:1", "SUMMARY:a", "DUE:20261201T100060Z", "END:VTODO", "END:VCALENDAR",
        ]), format: .ics)
        #expect(ics?.location == .line(5) && ics?.field == "DUE")
        let todo = try expectImportFails(slate, Data("0000-01-01 Buy milk\n".utf8), format: .todotxt)
        #expect(todo?.location == .line(1))
    }

    /// A Slate export that does not parse is read as one (not as a Taskwarrior file whose
    /// "line 1" is wrong), and its error says what and where.
    @Test func aBrokenSlateExportIsRefusedAsOneNamingTheLine() throws {
        let (slate, _) = try makeSlate()
        let twice = Data("{\"format\":\"slate\",\"version\":2,\n\"lists\":[],\n\"tasks\":[{\"title\":\"a\",\"title\":\"b\"}]}\n".utf8)
        #expect(TransferFormat.detect(twice) == .json)
        let duplicate = try expectImportFails(slate, twice, format: nil)
        #expect(duplicate?.description == "line 3: \"title\" is given twice in one object; give each key once.")
        let cut = Data("{\"format\":\"slate\",\"version\":2,\n\"lists\":[],\n\"tasks\":[{\"title\":\"a\"},\n{\"title\":\"b\"\n".utf8)
        let truncated = try expectImportFails(slate, cut, format: nil)
        #expect(truncated?.description.contains("ends at line 4 before its JSON does") == true, "\(truncated?.description ?? "")")
    }

    @Test func aKeyGivenTwiceInAnImportedObjectIsRefusedNamingIt() throws {
        let (slate, _) = try makeSlate()
        let file = Data("{\"format\":\"slate\",\n\"tasks\":[{\"title\":\"a\",\n\"t\\u0069tle\":\"b\"}]}".utf8)
        let error = try expectImportFails(slate, file, format: .json)
        #expect(error?.field == "title" && error?.location == .line(3))
        #expect(error?.description == "line 3: \"title\" is given twice in one object; give each key once.")
        let taskwarrior = try expectImportFails(slate, Data(#"[{"description":"a","uuid":"x","uuid":"y"}]"#.utf8), format: .taskwarrior)
        #expect(taskwarrior?.field == "uuid")
        // The same key in different objects, or as a value, is fine.
        #expect(JSONDuplicateKey.first(in: Data(#"{"a":{"a":"a"},"b":[{"a":1},{"a":2}],"c":"a"}"#.utf8)) == nil)
        #expect(JSONDuplicateKey.first(in: Data(#"{"a":"x\"","b":{"\"":1,"\"":2}}"#.utf8)) == JSONDuplicateKey(key: "\"", line: 1))
        // 120,000 keys (a 1 MiB body, checked before sign-in): each key inserted in place, not
        // into a copy of the keys so far; a duplicate at the very end is still found.
        let keys = (0..<120_000).map { "\"k\($0)\":0" }.joined(separator: ",")
        #expect(JSONDuplicateKey.first(in: Data(("{" + keys + "}").utf8)) == nil)
        #expect(JSONDuplicateKey.first(in: Data(("{" + keys + ",\"k7\":1}").utf8)) == JSONDuplicateKey(key: "k7", line: 1))
    }
}

@Suite struct ImportLimitTests {
    @Test func aFileOverTheRowLimitIsRefusedBeforeAnythingIsWritten() throws {
        let (slate, _) = try makeSlate()
        let lines = String(repeating: "t\n", count: TransferFormat.maximumImportTasks + 1)
        let error = try expectImportFails(slate, Data(lines.utf8), format: .todotxt)
        #expect(error?.description == "The file holds 100001 tasks; one import takes at most 100000. Split it into smaller files.")
    }

    @Test func aFileOverTheSizeLimitIsRefusedUnread() throws {
        let (slate, _) = try makeSlate()
        let error = try expectImportFails(slate, Data(count: TransferFormat.maximumImportBytes + 1), format: nil)
        #expect(error?.description == "The file is larger than 64 MiB, the most one import reads; split it into smaller files.")
    }

    /// The undo of an import deletes what it created; the entry keeps ids, not rows.
    @Test func undoingAnImportDeletesItsTasksAndRefusesIfOneChangedSince() throws {
        let (slate, _) = try makeSlate()
        let kept = try slate.addTask(TaskDraft(title: "Mine"))
        try slate.importData(Data((0..<2_000).map { "Imported \($0) +Big\n" }.joined().utf8), format: .todotxt)
        #expect(try slate.count() == 2_001)
        let edited = try #require(try slate.tasks().first { $0.title == "Imported 7" })
        try slate.updateTask(edited.id, TaskPatch(title: "Edited after"))
        #expect(try slate.undo() == "Edit “Edited after”")
        #expect(try slate.undo() == "Import 2000 tasks")
        #expect(try slate.tasks().map(\.id) == [kept.id])
        #expect(try slate.lists().isEmpty, "the list the import created is gone too")
    }
}

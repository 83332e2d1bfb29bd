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

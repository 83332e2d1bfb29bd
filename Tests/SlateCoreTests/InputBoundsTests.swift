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

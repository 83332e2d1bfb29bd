import Foundation
import SlateCore
import Testing

@testable import SlateServer

/// The direct writers must give the text the dictionary path gives: the API's JSON shapes
/// do not change with how they are produced.
@Suite struct DirectJSONTests {
    static let now = Date(timeIntervalSince1970: 1_795_943_700)  // 2026-11-29T09:15:00Z

    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    static let account = UUID()
    static let list = TaskList(accountID: account, name: "Errands \"and\" more", created: now)

    static let tasks: [TaskItem] = [
        TaskItem(accountID: account, title: "Plain", created: now),
        TaskItem(
            number: 12, accountID: account, title: "Tab\tquote\" backslash\\ é ✓ \u{1}", notes: "line\nline\r",
            isCompleted: true, completedAt: now.addingTimeInterval(0.5), created: now.addingTimeInterval(-86_400 * 400),
            modified: now.addingTimeInterval(-0.001), due: now.addingTimeInterval(-3600), priority: .critical,
            isFlagged: true, listID: list.id, parentID: UUID(), order: 2.5, tags: ["home", "çà"],
            recurrence: Recurrence(.weekly, interval: 2)),
        // All-day, overdue and not; a list the account does not have; whole and huge orders.
        TaskItem(accountID: account, title: "All day", created: now, due: now.addingTimeInterval(-86_400 * 2), isAllDay: true,
                 listID: UUID(), order: 1),
        TaskItem(accountID: account, title: "Tomorrow", created: now, due: now.addingTimeInterval(86_400), isAllDay: true,
                 order: 1e20, recurrence: Recurrence(.daily)),
        TaskItem(accountID: account, title: "Old and far", created: Date(timeIntervalSince1970: -12_000_000_000),
                 due: Date(timeIntervalSince1970: 4_102_444_800.123), order: -0.1),
        TaskItem(accountID: account, title: "Before the Gregorian calendar", created: Date(timeIntervalSince1970: -13_000_000_000.25),
                 due: Date(timeIntervalSince1970: -13_000_000_000), isAllDay: true),
    ]

    @Test(arguments: ["Europe/Paris", "America/Los_Angeles", "Pacific/Kiritimati", "UTC"])
    func theAPIWritesTheOneRecordTheCommandLineShows(zone: String) throws {
        let calendar = Self.calendar(zone)
        let lists = [Self.list.id: Self.list]
        let names = lists.mapValues(\.name)
        for task in Self.tasks {
            let written = try #require(try JSONSerialization.jsonObject(with: JSONWriter.data(TaskJSON(task, listNames: names, now: Self.now, calendar: calendar))) as? NSDictionary)
            #expect(written == PublicJSON.task(task, lists: lists, now: Self.now, calendar: calendar) as NSDictionary)
            #expect(Set(written.allKeys.compactMap { $0 as? String }) == Set(TaskRecord.names))
        }
        let array = try #require(try JSONSerialization.jsonObject(with: JSONWriter.data(["tasks": TaskJSON(array: Self.tasks, listNames: names, now: Self.now, calendar: calendar)])) as? [String: Any])
        #expect((array["tasks"] as? [Any])?.count == Self.tasks.count)
        let text = String(decoding: JSONWriter.data(TaskJSON(Self.tasks[1], listNames: names, now: Self.now, calendar: calendar)), as: UTF8.self)
        #expect(text.hasPrefix(#"{"alerts":[],"completedAt":"2026-11-29T09:15:00.500Z","created":"2025-10-25T09:15:00.000Z","#), "keys in byte order, compact")
        #expect(text.contains(#""isCompleted":true,"isFlagged":true,"#) && text.contains(#""recurrence":"every 2 weeks""#))
    }

    @Test func anEmptyArrayOfTasksIsAnEmptyArray() {
        let written = JSONWriter.data(TaskJSON(array: [], listNames: [:], now: Self.now, calendar: Self.calendar("UTC")))
        #expect(String(decoding: written, as: UTF8.self) == "[]")
    }

    @Test func valuesOfEveryKindAreWrittenCompactlyWithSortedKeys() {
        let tree: [String: Any] = [
            "b": [1, 2.5, true, false, NSNull(), "x"] as [Any], "a": ["z": 1, "y": [String]()] as [String: Any],
            "c": ["p", "q"], "d": -12, "e": Double.infinity, "f": NSNumber(value: 3),
        ]
        #expect(String(decoding: JSONWriter.data(tree), as: UTF8.self)
            == #"{"a":{"y":[],"z":1},"b":[1,2.5,true,false,null,"x"],"c":["p","q"],"d":-12,"e":null,"f":3}"#)
    }
}

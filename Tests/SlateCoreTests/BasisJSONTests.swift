import Foundation
@testable import SlateCore
import Testing

/// A stored calendar object's basis is written without `JSONEncoder` (`TaskItem.basisJSON`):
/// it must say what the encoder says, field for field, and read back as the same task.
@Suite struct BasisJSONTests {
    static let account = UUID()

    static let tasks: [TaskItem] = [
        TaskItem(accountID: account, title: "Plain", created: Date(timeIntervalSinceReferenceDate: 818_259_379.963)),
        TaskItem(id: UUID(), number: 41_207, accountID: account, title: "Quote \" backslash \\ slash / tab\tnewline\n\u{1} end",
                 notes: "Ünïcödé 🎬 — notes\r\nsecond line", isCompleted: true,
                 completedAt: Date(timeIntervalSinceReferenceDate: 818_300_000.125), created: Date(timeIntervalSinceReferenceDate: -12.5),
                 modified: Date(timeIntervalSinceReferenceDate: 1e10), due: Date(timeIntervalSinceReferenceDate: 824_947_200),
                 isAllDay: true, priority: .high, isFlagged: true, listID: UUID(), parentID: UUID(), order: -0.1 / 3,
                 tags: ["a", "b c", "\"q\""], recurrence: Recurrence(.weekly, interval: 2),
                 alerts: [TaskAlert(.beforeDue(seconds: 900)), TaskAlert(.onDay(daysBefore: 1, minuteOfDay: 540)),
                          TaskAlert(.at(Date(timeIntervalSinceReferenceDate: 818_000_000)))]),
        TaskItem(accountID: account, title: "", created: Date(timeIntervalSinceReferenceDate: 0), priority: .critical, order: 1e20,
                 recurrence: Recurrence(.daily)),
    ]

    @Test(arguments: tasks)
    func saysWhatTheEncoderSaysAndReadsBackTheSame(task: TaskItem) throws {
        let written = Data(task.basisJSON.utf8)
        #expect(try JSONDecoder().decode(TaskItem.self, from: written) == task)

        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let expected = try JSONSerialization.jsonObject(with: encoder.encode(task)) as? NSDictionary
        let actual = try JSONSerialization.jsonObject(with: written) as? NSDictionary
        #expect(actual != nil)
        #expect(actual == expected)
    }

    @Test func keysAreInTheEncodersOrder() throws {
        let text = Self.tasks[1].basisJSON
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(Self.tasks[1]), as: UTF8.self)
        let keys = { (json: String) in
            try (JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]).keys
                .sorted { json.range(of: "\"\($0)\":")!.lowerBound < json.range(of: "\"\($1)\":")!.lowerBound }
        }
        #expect(try keys(text) == keys(expected))
    }
}

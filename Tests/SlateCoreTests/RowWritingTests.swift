import Foundation
import TestDatabases
import Testing

@testable import SlateCore
@testable import SlateStore

/// Tasks write their own column values (`RowWritable`): the same values the schema's key
/// paths give, and the text rules' shortcuts give what Foundation gives.
@Suite struct RowWritingTests {
    private func tasks() throws -> [TaskItem] {
        let container = try Slate.openContainer(path: TestDatabase.freshStore())
        let account = try Slate.ensureAccount(named: "ana", in: container, now: Date(timeIntervalSince1970: 1_795_943_700))
        let slate = Slate(container: container, accountID: account.id, calendar: Calendar(identifier: .gregorian))
        let list = try slate.createList(name: "Errands")
        let parent = try slate.addTask(TaskDraft(title: "Parent"))
        let drafts = [
            TaskDraft(title: "Plain"),
            TaskDraft(title: "Everything \"quoted\" É/é", notes: "line\nline", listID: list.id, priority: .critical,
                      due: DueDate(date: Date(timeIntervalSince1970: 1_800_000_000.123), isAllDay: false), isFlagged: true,
                      tags: ["home", "çà", "a\\b", "x/y"], recurrence: Recurrence(.weekly, interval: 2), parentID: parent.id,
                      alerts: [TaskAlert(.beforeDue(seconds: 900))]),
            TaskDraft(title: "All day ＦＵＬＬ", due: DueDate(date: Date(timeIntervalSince1970: 1_795_910_400), isAllDay: true)),
        ]
        for draft in drafts { try slate.addTask(draft) }
        _ = try slate.setCompleted([parent.id], true)
        return try ModelContext(container).fetch(FetchDescriptor<TaskItem>(sortKeys: [.ascending(\.created)]))
    }

    @Test func tasksWriteTheValuesTheirKeyPathsGive() throws {
        let tasks = try tasks()
        #expect(tasks.count == 4)
        #expect(TaskItem.rowWriter != nil)
        for task in tasks {
            #expect(task.rowValues.count == TaskItem.schema.columns.count)
            #expect(task.rowValues == TaskItem.schema.columnValues(of: task), "\(task.title)")
        }
    }

    @Test func arraysOfStringsAreTheJSONThatJSONEncoderWrites() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let samples: [[String]] = [
            [], [""], ["a", "b"], ["a/b", "q\"uote", "back\\slash"], ["tab\tnl\ncr\r", "\u{8}\u{C}"],
            ["\u{0}\u{1}\u{1F}\u{7F}\u{80}\u{9F}"], ["é☕👩‍👩‍👧", "\u{2028}\u{2029}", "<>&'"],
        ]
        for strings in samples {
            let expected = String(decoding: try encoder.encode(strings), as: UTF8.self)
            #expect(DatabaseValue.json(strings) == .text(expected))
        }
        #expect(DatabaseValue.json([TaskAlert]()) == .text("[]"))
        let alerts = [TaskAlert(.beforeDue(seconds: 900))]
        #expect(DatabaseValue.json(alerts) == .text(String(decoding: try encoder.encode(alerts), as: UTF8.self)))
    }

    @Test func asciiTitlesFoldAsFoundationFoldsThem() {
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]
        let printable = String((0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) })
        for title in [printable, "Call MOM", "T123 +P3", "Élan", "ＦＵＬＬ width", "straße"] {
            var task = TaskItem(accountID: UUID(), title: title)
            task.title = title
            #expect(task.titleSortKey == title.folding(options: options, locale: nil), "\(title)")
        }
    }

    @Test func titlesAreTrimmedAsFoundationTrimsThem() throws {
        for title in ["plain", " lead", "trail ", "\tboth\n", "\u{A0}nbsp\u{A0}", "\u{2003}em", "x\u{85}", "a b"] {
            #expect(try TaskRules.validTitle(title) == title.trimmingCharacters(in: .whitespacesAndNewlines), "\(title.debugDescription)")
        }
        #expect(throws: SlateError.self) { try TaskRules.validTitle(" \u{A0}\n") }
    }

    @Test func plainTagsAreNormalisedAsBefore() {
        // The shortcut for printable ASCII gives what trimming, lower-casing and joining give.
        func slow(_ tag: String) -> String {
            var text = tag.trimmingCharacters(in: .whitespaces)
            while text.hasPrefix("@") || text.hasPrefix("#") { text.removeFirst() }
            return text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: "-")
        }
        for tag in ["home", "Home", "c3", "A-B_c", "x@y", "#work", "@@Err", " spaced out ", "Straße", "ÉTÉ", "a\tb", ""] {
            #expect(TaskRules.normalizedTag(tag) == slow(tag), "\(tag.debugDescription)")
        }
    }
}

import Foundation
import SlateCore
@testable import SlateStore
import Testing

/// Version 2 of the file: the `reminderOffset` of tasks written before alerts becomes an
/// alert, and the column goes.
@Suite struct LegacyReminderTests {
    @Test func reminderOffsetsOfAVersion1FileBecomeAlertsAndTheColumnGoes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-\(UUID().uuidString).sqlite").path
        defer {
            let folder = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where file.hasPrefix(name) {
                try? FileManager.default.removeItem(atPath: folder + "/" + file)
            }
        }
        let due = date(2026, 12, 1, 10, 0)
        var ids: [String: UUID] = [:]
        do {
            let slate = try Slate.open(path: path, calendar: testCalendar, clock: { date(2026, 11, 29, 9, 0) })
            for (title, hasDue, alerts) in [("lead", true, [String]()), ("has alerts", true, ["due"]), ("after", true, []),
                                            ("no due", false, []), ("odd", true, []), ("too far", true, [])] {
                ids[title] = try slate.addTask(TaskDraft(title: title, due: hasDue ? DueDate(date: due, isAllDay: false) : nil,
                                                         alerts: try alerts.map { try TaskAlert(parsing: $0) })).id
            }
        }
        // The file as Slate wrote it before alerts replaced the column: version 1, offsets set.
        do {
            let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
            try database.execute("ALTER TABLE tasks ADD COLUMN reminderOffset INTEGER")
            for (title, offset) in [("lead", 900), ("has alerts", 3600), ("after", -600), ("no due", 900), ("odd", 90),
                                    ("too far", 400 * 86_400)] {
                try database.execute("UPDATE tasks SET reminderOffset = ? WHERE id = ?",
                                     [.integer(Int64(offset)), .text(ids[title]!.uuidString)])
            }
            try database.execute("UPDATE _slate_meta SET value = 1 WHERE key = 'schema_version'")
            try database.execute("UPDATE _slate_meta SET value = 0 WHERE key = 'schema_fingerprint'")
        }
        let slate = try Slate.open(path: path, calendar: testCalendar, clock: { date(2026, 11, 29, 9, 0) })
        func alerts(_ title: String) throws -> [String] { try slate.task(id: ids[title]!).model.alerts.map(\.text) }
        #expect(try alerts("lead") == ["15m"])
        #expect(try alerts("has alerts") == ["due"], "a task with alerts keeps them")
        #expect(try alerts("after") == [Timestamp.format(due.addingTimeInterval(600))], "after the due date: the moment it fired")
        #expect(try alerts("no due") == [], "an offset without a due date meant nothing")
        #expect(try alerts("odd") == ["90s"])
        #expect(try alerts("too far") == [], "no alert can be more than a year before")
        let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
        #expect(try database.rows("SELECT name FROM pragma_table_info('tasks') WHERE name = 'reminderOffset'").isEmpty)
    }

    @Test func theLegacyRuleInSwiftMatchesTheMigration() {
        let due = date(2026, 12, 1, 10, 0)
        #expect(TaskAlert(legacyReminderOffset: 900, due: due)?.text == "15m")
        #expect(TaskAlert(legacyReminderOffset: 0, due: due)?.text == "due")
        #expect(TaskAlert(legacyReminderOffset: -600, due: due)?.text == Timestamp.format(due.addingTimeInterval(600)))
        #expect(TaskAlert(legacyReminderOffset: 400 * 86_400, due: due) == nil)
    }
}

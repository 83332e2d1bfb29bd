import Foundation
import SlateStore

extension SlateSchema {
    /// Version 3: an all-day task keeps its day (`TaskItem.dueDay`) beside the moment it was
    /// stored as. Before, an all-day date was only the start of its day in the zone of
    /// whoever set it, and a reader further west saw the day before. Each stored all-day date
    /// is read in the zone that wrote and showed it until now: its account's, else this
    /// machine's (what the CLI, CalDAV and an API client without a zone used). In the
    /// migration's one transaction, on both backends.
    static let allDayDatesKeepTheirDay = MigrationStage.custom(to: 3, "all-day dates keep their day", didMigrate: { database in
        let rows = try database.rows("""
            SELECT t."_pk" AS pk, t."due" AS due, a."timeZone" AS zone FROM "tasks" t
            JOIN "accounts" a ON a."id" = t."accountID"
            WHERE t."isAllDay" <> 0 AND t."due" IS NOT NULL AND t."dueDay" IS NULL
            """)
        var calendars: [String: Calendar] = [:]
        for row in rows {
            guard case .integer(let pk) = row["pk"], let due = Date.fromDatabaseValue(row["due"]) else { continue }
            let zoneName = String.fromDatabaseValue(row["zone"]) ?? ""
            let calendar = calendars[zoneName] ?? {
                let zone = TimeZone(identifier: zoneName) ?? .current
                let calendar = TimeZones.calendar(in: zone)
                calendars[zoneName] = calendar
                return calendar
            }()
            let day = CalendarDay(due, in: calendar)
            try database.execute(#"UPDATE "tasks" SET "dueDay" = ? WHERE "_pk" = ?"#, [.integer(Int64(day.number)), .integer(pk)])
        }
    })
}

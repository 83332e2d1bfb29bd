import Foundation
import SlateStore

extension SlateSchema {
    /// Version 3: an all-day task keeps its day (`TaskItem.dueDay`) beside the moment it was
    /// stored as. Before, an all-day date was only the start of its day in the zone of
    /// whoever set it, and a reader further west saw the day before. Each stored start is
    /// read back as the day it starts (`AllDayMigration.day(starting:zones:)`). In the
    /// migration's one transaction, on both backends.
    static let allDayDatesKeepTheirDay = MigrationStage.custom(to: 3, "all-day dates keep their day", didMigrate: { database in
        let rows = try database.rows("""
            SELECT t."_pk" AS pk, t."due" AS due, a."timeZone" AS zone FROM "tasks" t
            JOIN "accounts" a ON a."id" = t."accountID"
            WHERE t."isAllDay" <> 0 AND t."due" IS NOT NULL AND t."dueDay" IS NULL
            """)
        // Per account zone (made once, not per row): where a start is looked for, and where
        // the day is placed again.
        var calendars: [String: (candidates: [Calendar], home: Calendar)] = [:]
        let machine = TimeZones.calendar(in: .current)
        for row in rows {
            guard case .integer(let pk) = row["pk"], let due = Date.fromDatabaseValue(row["due"]) else { continue }
            let name = String.fromDatabaseValue(row["zone"])
            let zone = calendars[name ?? ""] ?? {
                let home = AccountDirectory.homeCalendar(zone: name, otherwise: machine)
                let made = (candidates: home.timeZone == machine.timeZone ? [machine] : [home, machine], home: home)
                calendars[name ?? ""] = made
                return made
            }()
            let day = AllDayMigration.day(starting: due, calendars: zone.candidates)
            // Placed at its day's start in the account's zone (this machine's without one),
            // as dates set from now on are (`Slate.homeCalendar`), so that they sort by day.
            let placed = day.start(in: zone.home)
            try database.execute(#"UPDATE "tasks" SET "dueDay" = ?, "due" = ? WHERE "_pk" = ?"#,
                                 [.integer(Int64(day.number)), placed.databaseValue, .integer(pk)])
        }
    })
}

/// How a stored all-day date from before version 3 is read back as its day.
enum AllDayMigration {
    /// The day whose start, in the zone of whoever set it, is `start`. That zone was not
    /// stored: the web app sent the browser's, the CLI used its machine's, the API a
    /// client's. So: the day that starts at `start` in the first of `zones` (the account's,
    /// then this machine's) where one does; else the day a real zone's offset (−12 to +14
    /// hours) makes it, read from the time of day in UTC — 23:00Z is the start of the next
    /// day at +1 (Berlin), 05:00Z of the same day at −5 (New York). At 10:00Z and 11:00Z
    /// two offsets fit (−10 Hawaii or +14; −11 or +13 New Zealand's summer): the more
    /// populated is taken (Hawaii, then New Zealand).
    static func day(starting start: Date, zones: [TimeZone]) -> CalendarDay {
        day(starting: start, calendars: zones.map(TimeZones.calendar(in:)))
    }

    /// `day(starting:zones:)` with the zones' calendars made by the caller.
    static func day(starting start: Date, calendars: [Calendar]) -> CalendarDay {
        for calendar in calendars where calendar.startOfDay(for: start) == start {
            return CalendarDay(start, in: calendar)
        }
        let midnight = utc.startOfDay(for: start)
        let hours = start.timeIntervalSince(midnight) / 3600
        return CalendarDay(hours <= 10 ? midnight : midnight.addingTimeInterval(86_400), in: utc)
    }

    private static let utc = TimeZones.calendar(in: TimeZone(identifier: "UTC")!)
}

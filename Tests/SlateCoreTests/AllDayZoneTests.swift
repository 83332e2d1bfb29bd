import Foundation
@testable import SlateCore
@testable import SlateStore
import TestDatabases
import Testing

/// An all-day date is a day, not a moment: "due 8 December" set in Berlin is the 8th for
/// someone in Los Angeles, in Tokyo, on a server in UTC and in a CalDAV client, and stays the
/// 8th when a file from before `TaskItem.dueDay` is opened.
@Suite struct AllDayZoneTests {
    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    static let berlin = calendar("Europe/Berlin")
    static let losAngeles = calendar("America/Los_Angeles")
    static let tokyo = calendar("Asia/Tokyo")
    static let utc = calendar("UTC")

    static func moment(_ text: String) -> Date { Timestamp.parse(text)! }

    /// The board as seen from `calendar` at `now`.
    static func reader(of slate: Slate, in calendar: Calendar, at now: String) -> Slate {
        let moment = moment(now)
        return Slate(container: slate.container, accountID: slate.accountID, calendar: calendar, clock: { moment })
    }

    /// A Slate in Berlin on the evening of 7 December, with one task due on the 8th.
    static func berlinTask(repeating: Recurrence? = nil) throws -> (Slate, TaskItem) {
        let now = moment("2026-12-07T19:00:00Z")
        let slate = try Slate.open(path: TestDatabase.freshStore(), calendar: berlin, clock: { now })
        let due = try #require(try TaskValues.due("2026-12-08", now: now, calendar: berlin))
        let task = try slate.addTask(TaskDraft(title: "Return the camera", due: due, recurrence: repeating))
        return (slate, task)
    }

    /// A task due `due` added to `slate`'s board by someone whose calendar is `calendar`.
    @discardableResult
    static func add(_ title: String, due: String, to slate: Slate, from calendar: Calendar, at now: Date) throws -> UUID {
        let writer = Slate(container: slate.container, accountID: slate.accountID, calendar: calendar, clock: { now })
        return try writer.addTask(TaskDraft(title: title, due: try TaskValues.due(due, now: now, calendar: calendar))).id
    }

    /// A store as version 2 left it, upgraded: `fill` adds tasks through a Slate in `calendar`
    /// and returns their ids; then the day column goes and the version is set back (the start
    /// of each day where it was set, and no day); `check` gets the store opened again by a
    /// server in UTC, which migrates it, and the ids.
    static func withUpgradedVersion2Store(filledIn calendar: Calendar, at now: Date, fill: (Slate) throws -> [UUID],
                                          check: (Slate, [UUID]) throws -> Void) throws {
        let path = TestDatabase.freshStore()
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("allday-\(UUID().uuidString).sqlite").path
        defer {
            let folder = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !TestDatabase.isPostgreSQL && file.hasPrefix(name) {
                try? FileManager.default.removeItem(atPath: folder + "/" + file)
            }
        }
        let ids = try fill(try Slate.open(path: path, calendar: calendar, clock: { now }))
        do {
            let database: any Database = TestDatabase.isPostgreSQL
                ? try PostgreSQLDatabase(location: PostgreSQLLocation(url: path), lockTimeout: 5)
                : try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
            try database.execute(#"ALTER TABLE tasks DROP COLUMN "dueDay""#)
            try database.execute("UPDATE _slate_meta SET value = 2 WHERE key = 'schema_version'")
            try database.execute("UPDATE _slate_meta SET value = 0 WHERE key = 'schema_fingerprint'")
        }
        try check(try Slate.open(path: path, calendar: utc, clock: { now }), ids)
    }

    @Test func aDaySetInBerlinIsTheSameDayEverywhere() throws {
        let (slate, task) = try Self.berlinTask()
        #expect(task.dueDay == 20261208)
        for calendar in [Self.berlin, Self.losAngeles, Self.tokyo, Self.utc] {
            let reader = Self.reader(of: slate, in: calendar, at: "2026-12-08T12:00:00Z")
            let read = try reader.task(id: task.id).model
            let json = PublicJSON.task(read, lists: [:], now: Self.moment("2026-12-08T12:00:00Z"), calendar: calendar)
            #expect(json["due"] as? String == "2026-12-08", "read in \(calendar.timeZone.identifier)")
            #expect(json["isAllDay"] as? Bool == true)
            #expect(read.dueCalendarDay == CalendarDay(year: 2026, month: 12, day: 8))
            #expect(CalendarDay(try #require(read.due(in: calendar)), in: calendar).description == "2026-12-08")
        }
    }

    @Test func todayAndOverdueFollowTheReadersDay() throws {
        let (slate, task) = try Self.berlinTask()
        // 7 December, 18:00 in Los Angeles (already the 8th in Berlin): not due today there yet.
        let evening = Self.reader(of: slate, in: Self.losAngeles, at: "2026-12-08T02:00:00Z")
        #expect(try evening.tasks(TaskQuery(scope: .today)).map(\.id).isEmpty)
        // 8 December, 23:30 in Los Angeles: due today, not overdue.
        let lateOnTheDay = Self.reader(of: slate, in: Self.losAngeles, at: "2026-12-09T07:30:00Z")
        #expect(try lateOnTheDay.tasks(TaskQuery(scope: .today)).map(\.id) == [task.id])
        #expect(try lateOnTheDay.tasks(TaskQuery(scope: .overdue)).isEmpty)
        #expect(try !lateOnTheDay.task(id: task.id).model.isOverdue(now: Self.moment("2026-12-09T07:30:00Z"), calendar: Self.losAngeles))
        #expect(try lateOnTheDay.statistics().overdue == 0)
        // 9 December, 00:30 in Los Angeles: overdue.
        let nextDay = Self.reader(of: slate, in: Self.losAngeles, at: "2026-12-09T08:30:00Z")
        #expect(try nextDay.tasks(TaskQuery(scope: .overdue)).map(\.id) == [task.id])
        #expect(try nextDay.task(id: task.id).model.isOverdue(now: Self.moment("2026-12-09T08:30:00Z"), calendar: Self.losAngeles))
        #expect(try nextDay.statistics().overdue == 1)
        // 8 December, 08:30 in Tokyo (the 7th in Berlin, still): due today there.
        let tokyo = Self.reader(of: slate, in: Self.tokyo, at: "2026-12-07T23:30:00Z")
        #expect(try tokyo.tasks(TaskQuery(scope: .today)).map(\.id) == [task.id])
    }

    @Test func exportsFromAnotherZoneWriteTheDay() throws {
        let (slate, _) = try Self.berlinTask()
        let reader = Self.reader(of: slate, in: Self.losAngeles, at: "2026-12-07T20:00:00Z")
        let ics = String(decoding: try reader.export(.ics), as: UTF8.self)
        #expect(ics.contains("DUE;VALUE=DATE:20261208"))
        let todo = String(decoding: try reader.export(.todotxt), as: UTF8.self)
        #expect(todo.contains("due:2026-12-08"))
        let json = String(decoding: try reader.export(.json), as: UTF8.self)
        #expect(json.contains(#""due":"2026-12-08""#))
    }

    @Test func aRepeatingDayCompletedFromAnotherZoneMovesOnByOneDay() throws {
        let (slate, task) = try Self.berlinTask(repeating: Recurrence(.daily))
        let reader = Self.reader(of: slate, in: Self.losAngeles, at: "2026-12-08T17:00:00Z")
        try reader.setCompleted([task.id], true)
        let next = try #require(try reader.tasks(TaskQuery(status: .active)).first)
        #expect(next.dueDay == 20261209)
        #expect(next.isAllDay)
    }

    @Test func theSameDaySetAgainFromAnotherZoneChangesNothing() throws {
        let (slate, task) = try Self.berlinTask()
        let reader = Self.reader(of: slate, in: Self.losAngeles, at: "2026-12-07T20:00:00Z")
        let due = try #require(try TaskValues.due("2026-12-08", now: Self.moment("2026-12-07T20:00:00Z"), calendar: Self.losAngeles))
        let updated = try reader.updateTask(task.id, TaskPatch(due: .some(due)))
        #expect(updated.due == task.due, "the moment it sorts by stays the one it was set with")
        #expect(updated.dueDay == 20261208)
        let moved = try #require(try TaskValues.due("2026-12-09", now: Self.moment("2026-12-07T20:00:00Z"), calendar: Self.losAngeles))
        #expect(try reader.updateTask(task.id, TaskPatch(due: .some(moved))).dueDay == 20261209)
    }

    /// A store from before the day was kept: each all-day date is read in its account's zone.
    @Test func aVersion2StoreGetsItsDaysFromTheAccountsZone() throws {
        let now = Self.moment("2026-12-07T19:00:00Z")
        try Self.withUpgradedVersion2Store(filledIn: Self.tokyo, at: now, fill: { slate throws in
            _ = try AccountDirectory(container: slate.container).setTimeZone("Asia/Tokyo", for: slate.accountID)
            return [try Self.add("2026-12-08", due: "2026-12-08", to: slate, from: Self.tokyo, at: now),
                    try Self.add("2026-12-31", due: "2026-12-31", to: slate, from: Self.tokyo, at: now),
                    try Self.add("timed", due: "2026-12-08T09:00:00Z", to: slate, from: Self.tokyo, at: now)]
        }, check: { slate, ids throws in
            // Opened on a server in UTC, where the start of the 8th in Tokyo is the 7th.
            let tasks = try ids.map { try slate.task(id: $0).model }
            #expect(tasks.map(\.dueDay) == [20261208, 20261231, nil])
            let json = tasks.map { PublicJSON.task($0, lists: [:], now: now, calendar: Self.utc)["due"] as? String }
            #expect(json == ["2026-12-08", "2026-12-31", "2026-12-08T09:00:00.000Z"])
        })
    }

    /// Without an account zone, a stored start is read by the offset it shows, not in this
    /// machine's zone: the web app sent the browser's zone, so a server in UTC held 23:00Z
    /// for a day set in Berlin, the start of the next day.
    @Test func aStoredStartIsReadAsTheDayItStartsWhereverItWasSet() throws {
        let set: [(Calendar, String)] = [(Self.berlin, "2026-12-09"), (Self.losAngeles, "2026-12-09"), (Self.tokyo, "2026-12-09"),
                                          (Self.calendar("Pacific/Auckland"), "2026-12-09"), (Self.calendar("Pacific/Honolulu"), "2026-12-09"),
                                          (Self.calendar("Pacific/Tongatapu"), "2026-07-01"), (Self.utc, "2026-12-31"),
                                          (Self.calendar("Asia/Kolkata"), "2026-03-29")]
        for (calendar, text) in set {
            let start = try #require(Timestamp.parseDay(text, calendar: calendar))
            for zones in [[], [TimeZone(identifier: "UTC")!], [TimeZone(identifier: "America/New_York")!, TimeZone(identifier: "UTC")!]] {
                #expect(AllDayMigration.day(starting: start, zones: zones).description == text,
                        "set in \(calendar.timeZone.identifier), read with \(zones.map(\.identifier))")
            }
        }
        // The account's zone settles what the offset cannot: 11:00Z starts a day at +13 and at −11,
        // 10:00Z at +14 and at −10.
        for (zone, text) in [("Pacific/Pago_Pago", "2026-12-09"), ("Pacific/Kiritimati", "2026-07-01")] {
            let start = try #require(Timestamp.parseDay(text, calendar: Self.calendar(zone)))
            #expect(AllDayMigration.day(starting: start, zones: [TimeZone(identifier: zone)!]).description == text)
        }
    }

    @Test func aVersion2StoreWithoutAccountZonesKeepsTheDaysTheBrowsersSet() throws {
        let now = Self.moment("2026-12-07T19:00:00Z")
        try Self.withUpgradedVersion2Store(filledIn: Self.utc, at: now, fill: { server throws in
            try [Self.berlin, Self.calendar("Pacific/Auckland"), Self.losAngeles].map { calendar in
                try Self.add(calendar.timeZone.identifier, due: "2026-12-09", to: server, from: calendar, at: now)
            }
        }, check: { slate, ids throws in
            #expect(try ids.map { try slate.task(id: $0).model.dueDay } == [20261209, 20261209, 20261209])
        })
    }

    /// An all-day date sorts at its day's start in the account's zone, whoever set it from
    /// wherever: in Los Angeles, a day set in Auckland or Berlin comes after the evening before.
    @Test func anAccountsDatesSortByDayWhereverTheyWereSet() throws {
        let now = Self.moment("2026-12-07T19:00:00Z")
        let home = try Slate.open(path: TestDatabase.freshStore(), calendar: Self.losAngeles, clock: { now })
        try AccountDirectory(container: home.container).setTimeZone("America/Los_Angeles", for: home.accountID)
        func add(_ title: String, _ due: String, from calendar: Calendar) throws -> UUID {
            try Self.add(title, due: due, to: home, from: calendar, at: now)
        }
        let auckland = try add("set in Auckland", "2026-12-09", from: Self.calendar("Pacific/Auckland"))
        let call = try add("call", "2026-12-08T16:00", from: Self.losAngeles)
        let berlin = try add("set in Berlin", "2026-12-09", from: Self.berlin)
        let morning = try add("morning", "2026-12-09T08:00", from: Self.losAngeles)
        let sorted = try home.tasks(TaskQuery(scope: .scheduled, sort: .due)).map(\.id)
        #expect(sorted.firstIndex(of: call)! < sorted.firstIndex(of: auckland)!)
        #expect(sorted.firstIndex(of: call)! < sorted.firstIndex(of: berlin)!)
        #expect(sorted.firstIndex(of: berlin)! < sorted.firstIndex(of: morning)!)
        #expect(sorted.firstIndex(of: auckland)! < sorted.firstIndex(of: morning)!)
    }

    /// `slate alerts` on a machine in UTC lists an alert at 9:00 on the day at 9:00 in the
    /// account's zone, when `slate serve` sends it.
    @Test func upcomingAlertsFireInTheAccountsZone() throws {
        let now = Self.moment("2026-12-07T19:00:00Z")
        let slate = try Slate.open(path: TestDatabase.freshStore(), calendar: Self.utc, clock: { now })
        try AccountDirectory(container: slate.container).setTimeZone("Asia/Tokyo", for: slate.accountID)
        let due = try TaskValues.due("2026-12-09", now: now, calendar: Self.utc)
        _ = try slate.addTask(TaskDraft(title: "Wrap party", due: due, alerts: [try TaskAlert(parsing: "0d@09:00")]))
        #expect(try slate.upcomingAlerts().map(\.fireAt) == [Self.moment("2026-12-09T00:00:00Z")])
    }

    /// Setting the account's zone (as the web app does the first time it runs) places every
    /// all-day date at its day's start there, so dates set from several zones before sort by day.
    @Test func settingTheAccountsZonePlacesItsDatesThere() throws {
        let now = Self.moment("2026-12-07T19:00:00Z")
        let home = try Slate.open(path: TestDatabase.freshStore(), calendar: Self.losAngeles, clock: { now })
        func add(_ title: String, _ due: String, from calendar: Calendar) throws -> UUID {
            try Self.add(title, due: due, to: home, from: calendar, at: now)
        }
        let auckland = try add("set in Auckland", "2026-12-09", from: Self.calendar("Pacific/Auckland"))
        let call = try add("call", "2026-12-08T16:00", from: Self.losAngeles)
        try AccountDirectory(container: home.container).setTimeZone("America/Los_Angeles", for: home.accountID)
        let placed = try home.task(id: auckland).model
        #expect(placed.due == Self.moment("2026-12-09T08:00:00Z") && placed.dueDay == 20261209)
        let sorted = try home.tasks(TaskQuery(scope: .scheduled, sort: .due)).map(\.id)
        #expect(sorted == [call, auckland])
        let json = PublicJSON.task(placed, lists: [:], now: now, calendar: Self.calendar("Pacific/Auckland"))
        #expect(json["due"] as? String == "2026-12-09")
    }

    /// An upgraded account without a zone has its dates placed in this machine's zone: one
    /// place for all, whichever browser set them.
    @Test func aVersion2StoreWithoutAccountZonesPlacesItsDatesInTheMachinesZone() throws {
        let now = Self.moment("2026-12-07T19:00:00Z")
        try Self.withUpgradedVersion2Store(filledIn: Self.utc, at: now, fill: { server throws in
            try [Self.calendar("Pacific/Auckland"), Self.berlin].map { calendar in
                try Self.add("x", due: "2026-12-09", to: server, from: calendar, at: now)
            }
        }, check: { slate, ids throws in
            let machine = TimeZones.calendar(in: .current)
            let expected = try #require(CalendarDay(number: 20261209)).start(in: machine)
            #expect(try ids.map { try slate.task(id: $0).model.due } == [expected, expected])
        })
    }
}

import Foundation
import Synchronization
import SlateCore
import TestDatabases

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ date: Date) { current = Mutex(date) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Paris, where the fixed "now" is Sunday 29 November 2026, 10:15.
let testCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
    return calendar
}()

func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
    testCalendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
}

/// A fresh in-memory Slate with a clock at 2026-11-29 10:15 Paris time.
func makeSlate() throws -> (Slate, TestClock) {
    let clock = TestClock(date(2026, 11, 29, 10, 15))
    let slate = try Slate.open(path: TestDatabase.freshStore(), calendar: testCalendar, clock: { clock.now })
    return (slate, clock)
}

import Foundation
import Synchronization

/// The start of the day a moment falls in, kept per calendar and zone until that day
/// ends: working it out cost as much as writing a kept task's record (callgrind), and
/// it changes once a day.
enum DayStarts {
    private struct Key: Hashable {
        let calendar: Calendar.Identifier
        let zone: String
    }

    /// Beyond this many calendars and zones, the days kept start over.
    private static let capacity = 1_024
    private static let days = Mutex<[Key: DateInterval]>([:])

    /// `calendar.startOfDay(for: moment)`.
    static func start(of moment: Date, in calendar: Calendar) -> Date {
        let key = Key(calendar: calendar.identifier, zone: calendar.timeZone.identifier)
        if let day = days.withLock({ $0[key] }), day.start <= moment, moment < day.end { return day.start }
        guard let day = calendar.dateInterval(of: .day, for: moment) else { return calendar.startOfDay(for: moment) }
        days.withLock { days in
            if days.count >= capacity { days.removeAll(keepingCapacity: true) }
            days[key] = day
        }
        return day.start
    }
}

import Foundation

/// How a task repeats: every `interval` days, weeks, months or years.
public struct Recurrence: Codable, Sendable, Hashable {
    public enum Frequency: String, Codable, Sendable, CaseIterable {
        case daily, weekly, monthly, yearly

        var component: Calendar.Component {
            switch self {
            case .daily: .day
            case .weekly: .weekOfYear
            case .monthly: .month
            case .yearly: .year
            }
        }

        var unit: String {
            switch self {
            case .daily: "day"
            case .weekly: "week"
            case .monthly: "month"
            case .yearly: "year"
            }
        }
    }

    public var frequency: Frequency
    /// At least 1.
    public var interval: Int
    /// For a monthly or yearly repeat that a short month cut short (the 31st → 28 February),
    /// the day of the month it belongs on, given back by the next month that has it
    /// (→ 31 March); nil while the due date is on its own day. Not part of how people say
    /// the repeat (`phrase`), and set by `advanced(from:calendar:)`, not by them.
    public var dayOfMonth: Int?

    public init(_ frequency: Frequency, interval: Int = 1, dayOfMonth: Int? = nil) {
        self.frequency = frequency
        self.interval = interval
        self.dayOfMonth = dayOfMonth
    }

    /// The next due date after `date`, keeping the time of day (and the day of month
    /// where the month has it: Jan 31 monthly → Feb 28/29; `advanced` keeps the 31st).
    public func next(after date: Date, calendar: Calendar) -> Date {
        advanced(from: date, calendar: calendar).due
    }

    /// The next due date after `date` and the repeat that goes on from it: a month too short
    /// for the day (`dayOfMonth`, else `date`'s) ends on its last day, and the repeat
    /// remembers the day, so that 31 January monthly goes to 28 February, then 31 March.
    public func advanced(from date: Date, calendar: Calendar) -> (due: Date, recurrence: Recurrence) {
        var next = calendar.date(byAdding: frequency.component, value: interval, to: date) ?? date
        var following = self
        guard frequency == .monthly || frequency == .yearly else { return (next, following) }
        let wanted = dayOfMonth ?? calendar.component(.day, from: date)
        let length = calendar.range(of: .day, in: .month, for: next)?.count ?? 28
        let day = min(wanted, length)
        if calendar.component(.day, from: next) != day {
            var parts = calendar.dateComponents([.era, .year, .month, .day, .hour, .minute, .second, .nanosecond], from: next)
            parts.day = day
            next = calendar.date(from: parts) ?? next
        }
        following.dayOfMonth = day < wanted ? wanted : nil
        return (next, following)
    }

    /// As people say it: "every day", "every 2 weeks".
    public var phrase: String {
        interval == 1 ? "every \(frequency.unit)" : "every \(interval) \(frequency.unit)s"
    }

    /// The stored form: `daily`, `weekly/2`, `monthly@31` (with `dayOfMonth`).
    public var storageValue: String {
        (interval == 1 ? frequency.rawValue : "\(frequency.rawValue)/\(interval)") + (dayOfMonth.map { "@\($0)" } ?? "")
    }

    /// Reads the stored form.
    public init?(storageValue: String) {
        let halves = storageValue.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        let parts = halves[0].split(separator: "/")
        guard let first = parts.first, let frequency = Frequency(rawValue: String(first)) else { return nil }
        let interval = parts.count > 1 ? Int(parts[1]) : 1
        guard let interval, interval >= 1, parts.count <= 2 else { return nil }
        var dayOfMonth: Int?
        if halves.count == 2 {
            guard let day = Int(halves[1]), (1...31).contains(day) else { return nil }
            dayOfMonth = day
        }
        self.init(frequency, interval: interval, dayOfMonth: dayOfMonth)
    }

    /// The same repeat, ignoring the day a short month kept (`dayOfMonth`).
    func isSameRule(as other: Recurrence?) -> Bool {
        guard let other else { return false }
        return frequency == other.frequency && interval == other.interval
    }
}

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

    public init(_ frequency: Frequency, interval: Int = 1) {
        self.frequency = frequency
        self.interval = interval
    }

    /// The next due date after `date`, keeping the time of day (and the day of month
    /// where the month has it; Jan 31 monthly → Feb 28/29 → Mar 31 is not kept: Mar 28).
    public func next(after date: Date, calendar: Calendar) -> Date {
        calendar.date(byAdding: frequency.component, value: interval, to: date) ?? date
    }

    /// As people say it: "every day", "every 2 weeks".
    public var phrase: String {
        interval == 1 ? "every \(frequency.unit)" : "every \(interval) \(frequency.unit)s"
    }

    /// The stored form: `daily`, `weekly/2`.
    public var storageValue: String { interval == 1 ? frequency.rawValue : "\(frequency.rawValue)/\(interval)" }

    /// Reads the stored form.
    public init?(storageValue: String) {
        let parts = storageValue.split(separator: "/")
        guard let first = parts.first, let frequency = Frequency(rawValue: String(first)) else { return nil }
        let interval = parts.count > 1 ? Int(parts[1]) : 1
        guard let interval, interval >= 1, parts.count <= 2 else { return nil }
        self.init(frequency, interval: interval)
    }
}

import Foundation

/// When a task is due: a moment, or a whole local day.
public struct DueDate: Sendable, Hashable, Codable {
    /// The moment, or the start of the day (in the calendar's time zone) when `isAllDay`.
    public var date: Date
    /// True for a day without a time.
    public var isAllDay: Bool

    public init(date: Date, isAllDay: Bool) {
        self.date = date
        self.isAllDay = isAllDay
    }
}

import Foundation

/// When a task is due, as a person said it: a moment, or a whole local day.
///
/// For an all-day date, `date` is the start of that day in the calendar's time zone — the
/// same convention as `TaskItem.due` with `TaskItem.isAllDay`, so the two copy across as is.
public struct DueDate: Sendable, Hashable, Codable {
    /// The moment, or the start of the local day when `isAllDay`.
    public var date: Date
    /// True when the task is due on a day, not at a time.
    public var isAllDay: Bool

    public init(date: Date, isAllDay: Bool) {
        self.date = date
        self.isAllDay = isAllDay
    }

    /// A short English description for showing back what was understood, relative to `now`:
    /// "Today", "Tomorrow 17:00", "Friday", "Thu 24 Dec", "Fri 24 Dec 2027 09:30".
    ///
    /// Days within the coming week are named by weekday; other dates show the year only when
    /// it is not the current one. Times use the 24-hour clock in `calendar.timeZone`.
    /// The wording is fixed (not localised) so that every surface and test sees the same text.
    public func summary(relativeTo now: Date, calendar: Calendar) -> String {
        let day = calendar.startOfDay(for: date)
        let today = calendar.startOfDay(for: now)
        let offset = calendar.dateComponents([.day], from: today, to: day).day ?? 0
        let parts = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute], from: date)
        let weekday = (parts.weekday ?? 1) - 1
        var text: String
        switch offset {
        case 0: text = "Today"
        case 1: text = "Tomorrow"
        case -1: text = "Yesterday"
        case 2...6: text = Self.weekdayNames[weekday]
        default:
            text = "\(Self.weekdayNames[weekday].prefix(3)) \(parts.day ?? 1) \(Self.monthAbbreviations[(parts.month ?? 1) - 1])"
            if parts.year != calendar.component(.year, from: now) { text += " \(parts.year ?? 0)" }
        }
        if !isAllDay {
            let hour = parts.hour ?? 0, minute = parts.minute ?? 0
            text += " " + (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        }
        return text
    }

    private static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let monthAbbreviations = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
}

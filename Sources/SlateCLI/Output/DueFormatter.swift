import Foundation
import SlateCore

/// Due dates as people say them: "Today", "Tomorrow 17:00", "Fri", "4 Dec", "3 days ago".
struct DueFormatter {
    let now: Date
    let calendar: Calendar

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    func string(_ due: Date, isAllDay: Bool) -> String {
        let today = calendar.startOfDay(for: now)
        let day = calendar.startOfDay(for: due)
        let offset = calendar.dateComponents([.day], from: today, to: day).day ?? 0
        let parts = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute], from: due)
        let dayText: String
        switch offset {
        case 0: dayText = "Today"
        case 1: dayText = "Tomorrow"
        case -1: dayText = "Yesterday"
        case 2...6: dayText = Self.weekdays[(parts.weekday ?? 1) - 1]
        case -6 ... -2: dayText = "\(-offset) days ago"
        default:
            let sameYear = parts.year == calendar.component(.year, from: now)
            dayText = "\(parts.day ?? 1) \(Self.months[(parts.month ?? 1) - 1])" + (sameYear ? "" : " \(parts.year ?? 0)")
        }
        guard !isAllDay else { return dayText }
        return dayText + String(format: " %02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// A full date for `slate show`: "Sun 29 Nov 2026 17:00".
    func full(_ date: Date, isAllDay: Bool = false) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute], from: date)
        let text = "\(Self.weekdays[(parts.weekday ?? 1) - 1]) \(parts.day ?? 1) \(Self.months[(parts.month ?? 1) - 1]) \(parts.year ?? 0)"
        return isAllDay ? text : text + String(format: " %02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}

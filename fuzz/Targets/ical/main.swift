import Foundation
import FuzzSupport
@testable import SlateCore

// iCalendar import: content lines, folding, escaping and the BEGIN/END tree
// (ICalendarText), then VTODO fields, dates, RRULE and VALARM (ICalendarFormat).
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    let data = FuzzInput.data(start, count)
    _ = try? ICalendarFormat.decode(data, calendar: FuzzClock.zones[0])
    return 0
}

import Foundation
import FuzzSupport
@testable import SlateCore
import SlateServer

// Every date reader of outside text: DateParser's phrases and recurrences, the API's
// Timestamp forms, iCalendar's basic dates, moments and durations, the stored recurrence
// form, an API token's lifetime (`30d`). The first byte picks the time zone (`0` Paris,
// …), the rest is the text.
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    let data = FuzzInput.data(start, count)
    let calendar = FuzzClock.calendar(selectedBy: data.first)
    let text = String(decoding: data.dropFirst(), as: UTF8.self)
    let parser = DateParser(now: FuzzClock.now, calendar: calendar)
    if let due = parser.parseDue(text) { _ = due.summary(relativeTo: FuzzClock.now, calendar: calendar) }
    _ = parser.parseRecurrence(text)
    _ = Timestamp.parse(text)
    _ = Timestamp.parseDay(text, calendar: calendar)
    _ = BasicDate.parseDay(text, calendar: calendar)
    _ = BasicDate.parseMoment(text, local: calendar)
    if let seconds = BasicDate.parseDuration(text), BasicDate.parseDuration(BasicDate.formatDuration(seconds)) != seconds {
        fatalError("duration \(seconds) s does not read back from \(BasicDate.formatDuration(seconds))")
    }
    _ = Recurrence(storageValue: text)
    _ = try? TokenLifetime.parse(text, field: "expiresIn")
    return 0
}

import Foundation
import FuzzSupport
import SlateCore

// Quick entry (`slate add`, `POST /tasks/parse`, the web app's line): the first byte picks
// the time zone (`0` Paris, `1` UTC, …: FuzzClock), the rest is the line. Every understood
// part must be where it says in the line (the web app underlines it there).
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    let data = FuzzInput.data(start, count)
    let calendar = FuzzClock.calendar(selectedBy: data.first)
    let line = String(decoding: data.dropFirst(), as: UTF8.self)
    guard let entry = try? QuickEntryParser(now: FuzzClock.now, calendar: calendar).parse(line) else { return 0 }
    let units = Array(line.utf16)
    for part in entry.understood {
        let range = part.utf16Range
        guard range.lowerBound >= 0, range.upperBound <= units.count, Array(units[range]) == Array(part.text.utf16) else {
            fatalError("quick entry marked \(range) as \(part.kind) '\(part.text)' in a line of \(units.count) UTF-16 units")
        }
    }
    return 0
}

import Foundation

/// A time of day as written; `isEndOfDay` is "midnight", the 00:00 that ends the day.
struct TimeOfDay: Hashable, Sendable {
    var hour: Int
    var minute: Int
    var isEndOfDay = false

    static let evening = TimeOfDay(hour: 20, minute: 0)
}

extension DateGrammar {
    /// 5pm · 5 pm · 5:30pm · 5.30 pm · 17:30 · noon · midnight, optionally after "at".
    func timePart(_ words: ArraySlice<String>) -> TimeOfDay? {
        var list = Array(words)
        if list.first == "at" { list.removeFirst() }
        switch list.count {
        case 1: return Self.clockTime(list[0], meridiem: nil)
        case 2: return Self.meridiems[list[1]].flatMap { Self.clockTime(list[0], meridiem: $0) }
        default: return nil
        }
    }

    /// `meridiem` is 0 for am, 12 for pm, nil for the 24-hour clock (or a suffix in `word`).
    static func clockTime(_ word: String, meridiem: Int?) -> TimeOfDay? {
        if meridiem == nil {
            if word == "noon" { return TimeOfDay(hour: 12, minute: 0) }
            if word == "midnight" { return TimeOfDay(hour: 0, minute: 0, isEndOfDay: true) }
        }
        var body = Substring(word), meridiem = meridiem
        if meridiem == nil, let suffix = meridiems.keys.first(where: { word.hasSuffix($0) && word.count > $0.count }) {
            body = body.dropLast(suffix.count)
            meridiem = meridiems[suffix]
        }
        let fields = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "." })
        guard (1...2).contains(fields.count), (1...2).contains(fields[0].count),
            fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
            var hour = Int(fields[0])
        else { return nil }
        var minute = 0
        if fields.count == 2 {
            guard fields[1].count == 2, let value = Int(fields[1]), value < 60 else { return nil }
            minute = value
        }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + meridiem
        } else {
            // Without am/pm only hh:mm is a time: a bare "5" or "5.30" is a number.
            guard fields.count == 2, body.contains(":"), hour < 24 else { return nil }
        }
        return TimeOfDay(hour: hour, minute: minute)
    }

    static let meridiems: [String: Int] = ["am": 0, "a.m.": 0, "pm": 12, "p.m.": 12]
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

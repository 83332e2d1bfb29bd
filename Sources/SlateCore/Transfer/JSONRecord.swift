import Foundation

/// One object of a JSON file being imported, with typed reads that fail with an
/// `ImportError` naming the record and the key.
///
/// Absent keys and `null` both read as nil: files written by hand may leave fields out.
struct JSONRecord {
    let object: JSONObject
    let location: ImportError.Location

    /// The record at `index` (0-based) of `kind`, or an error when it is not an object.
    init(_ value: JSONValue, kind: String, index: Int) throws {
        location = .record(kind: kind, index: index + 1)
        guard case .object(let object) = value else {
            throw ImportError(location, field: nil, "a \(kind) must be a JSON object; got \(value.excerpt())")
        }
        self.object = object
    }

    /// A record already known to be an object (Taskwarrior's one-object-per-line files).
    init(object: JSONObject, location: ImportError.Location) {
        self.object = object
        self.location = location
    }

    func error(_ key: String, _ message: String) -> ImportError {
        ImportError(location, field: key, "\(key) \(message)")
    }

    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw error(key, "must be text; got \(value.excerpt())") }
        return text
    }

    func requiredString(_ key: String) throws -> String {
        guard let text = try string(key) else { throw error(key, "is missing") }
        return text
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw error(key, "must be true or false; got \(value.excerpt())") }
        return flag
    }

    func double(_ key: String) throws -> Double? {
        guard let value = value(key) else { return nil }
        switch value {
        case .number(let number): return number
        // Taskwarrior keeps values of attributes it does not know as text.
        case .string(let text) where Double(text)?.isFinite == true: return Double(text)
        default: throw error(key, "must be a number; got \(value.excerpt())")
        }
    }

    func int(_ key: String) throws -> Int? {
        guard let number = try double(key) else { return nil }
        guard number == number.rounded(), abs(number) < 9_007_199_254_740_992 else {
            throw error(key, "must be a whole number; got \(JSONValue.numberText(number))")
        }
        return Int(number)
    }

    func uuid(_ key: String) throws -> UUID? {
        guard let text = try string(key) else { return nil }
        guard let id = UUID(uuidString: text) else { throw error(key, "has an invalid id '\(text)'") }
        return id
    }

    /// An ISO 8601 moment (`2026-11-29T09:15:00.000Z`), as `Timestamp.parse` reads it.
    func timestamp(_ key: String) throws -> Date? {
        guard let text = try string(key) else { return nil }
        guard let date = Self.exportedTimestamp(text) ?? Timestamp.parse(text) else {
            throw error(key, "has an invalid date '\(text)'")
        }
        return date
    }

    /// `YYYY-MM-DDTHH:MM:SS.fffZ`, exactly as `Timestamp.format` writes it, read without a
    /// regex or a calendar (an export holds three per task); nil for any other shape.
    /// Same result as `Timestamp.parse`: whole milliseconds since 1970, divided by 1000.
    static func exportedTimestamp(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
              bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[23] == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), let fraction = number(20..<23),
              year >= 1, (1...12).contains(month), day >= 1, hour < 24, minute < 60, second < 60
        else { return nil }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        guard day <= [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] else { return nil }
        // Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let milliseconds = Int64(days) * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000 + fraction)
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    func strings(_ key: String) throws -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw error(key, "must be a list of text values; got \(value.excerpt())") }
        return try elements.map { element in
            guard case .string(let text) = element else {
                throw error(key, "must be a list of text values; got \(element.excerpt())")
            }
            return text
        }
    }

    func array(_ key: String) throws -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw error(key, "must be a list; got \(value.excerpt())") }
        return elements
    }
}

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
        guard let date = Timestamp.parse(text) else { throw error(key, "has an invalid date '\(text)'") }
        return date
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

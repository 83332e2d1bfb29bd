import Foundation

/// A JSON document as a tree, read without a fixed shape so that every wrong value can be
/// reported with its record and field, and written with keys in the order given.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Parses a JSON document; the error names the line where the syntax breaks, or where a
    /// key is repeated within one object.
    ///
    /// Foundation's `JSONSerialization` does the parsing: it is two orders of magnitude
    /// faster than `JSONDecoder` driving a `Decodable` tree, which matters for large exports.
    static func parse(_ data: Data) throws -> JSONValue {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            // What the parser refuses without saying where (a key given twice reads to it as
            // an early end of file): named by the scanners first, with its line.
            try refuseTrailingCommaOrDuplicateKey(data)
            var detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            // "… around character 1234." → also say which line that is.
            if let match = detail.firstMatch(of: #/character (\d+)/#), let offset = Int(match.1) {
                let line = data.prefix(offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                detail = "line \(line): " + detail
            } else if detail.localizedCaseInsensitiveContains("end of file") {
                let lines = data.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 } - (data.last == 0x0A ? 1 : 0)
                detail = "it ends at line \(lines) before its JSON does (an object or array is not closed: cut short?)."
            }
            throw ImportError(.file, field: nil, "The file is not valid JSON: \(detail)")
        }
        try refuseTrailingCommaOrDuplicateKey(data)
        return JSONValue(foundation: object)
    }

    /// Throws, naming the line, for a comma after the last member of an object or array, or
    /// a key given twice in one object.
    private static func refuseTrailingCommaOrDuplicateKey(_ data: Data) throws {
        if let line = JSONTrailingComma.line(in: data) {
            throw ImportError(.line(line), field: nil, "The file is not valid JSON: a comma follows the last member of an object or array.")
        }
        if let duplicate = JSONDuplicateKey.first(in: data) {
            throw ImportError(.line(duplicate.line), field: duplicate.key,
                              "\"\(duplicate.key)\" is given twice in one object; give each key once.")
        }
    }

    /// The tree from `JSONSerialization`'s objects. Booleans are told from numbers by their
    /// Objective-C type ("c"): on Linux `1 as? Bool` succeeds too.
    private init(foundation value: Any) {
        switch value {
        case let text as String:
            self = .string(text)
        case let number as NSNumber:
            self = String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
        case let array as [Any]:
            self = .array(array.map(JSONValue.init(foundation:)))
        case let dictionary as [String: Any]:
            self = .object(JSONObject(dictionary.map { ($0.key, JSONValue(foundation: $0.value)) }))
        default:
            self = .null
        }
    }

    /// The value as compact JSON text, shortened to `limit` characters for messages.
    func excerpt(limit: Int = 40) -> String {
        var text = ""
        write(into: &text)
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}

/// A JSON object: its members in the order they were given or are to be written.
struct JSONObject: Sendable, Equatable {
    var members: [(key: String, value: JSONValue)]

    init(_ members: [(key: String, value: JSONValue)] = []) { self.members = members }

    /// The first member named `key`.
    subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

// MARK: Writing

extension JSONValue {
    /// Appends the value as compact JSON (no spaces).
    func write(into text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value): text += Self.numberText(value)
        case .string(let value): Self.writeString(value, into: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(into: &text)
            }
            text += "]"
        case .object(let object):
            text += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { text += "," }
                Self.writeString(member.key, into: &text)
                text += ":"
                member.value.write(into: &text)
            }
            text += "}"
        }
    }

    /// A document laid out for reading and diffing: the top level indented, and each record
    /// of a top-level array (or of an array member of the top-level object) on its own line.
    func document() -> Data {
        var text = ""
        func records(_ elements: [JSONValue], indent: String) {
            guard !elements.isEmpty else { return text += "[]" }
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += indent + "  "
                element.write(into: &text)
                text += index < elements.count - 1 ? ",\n" : "\n"
            }
            text += indent + "]"
        }
        switch self {
        case .array(let elements):
            records(elements, indent: "")
        case .object(let object):
            text += "{\n"
            for (index, member) in object.members.enumerated() {
                text += "  "
                Self.writeString(member.key, into: &text)
                text += ": "
                if case .array(let elements) = member.value { records(elements, indent: "  ") } else { member.value.write(into: &text) }
                text += index < object.members.count - 1 ? ",\n" : "\n"
            }
            text += "}"
        default:
            write(into: &text)
        }
        return Data((text + "\n").utf8)
    }

    /// Whole numbers without a fraction; others in Swift's shortest form that reads back
    /// to the same `Double`.
    static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func writeString(_ value: String, into text: inout String) { JSONString.append(value, to: &text) }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }

    /// A string, or null for nil.
    static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    /// A whole number, or null for nil.
    static func integer(_ value: Int?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
}

/// JSON string literals for JSON written by hand (an alert's payload, sent 10,000 times a
/// minute, where `JSONSerialization` was a tenth of the server's time): quotes, backslashes
/// and control characters escaped, everything else as is (UTF-8), `/` unescaped.
public enum JSONString {
    /// `value` as a JSON string literal, quotes included.
    public static func literal(_ value: String) -> String {
        var text = ""
        append(value, to: &text)
        return text
    }

    /// Appends `value` to `text` as a JSON string literal, quotes included.
    public static func append(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                text += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

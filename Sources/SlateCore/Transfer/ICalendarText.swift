import Foundation

// The text layer of iCalendar (RFC 5545 §3.1–3.3): content lines, folding, parameters,
// TEXT escaping, and the BEGIN/END component tree. Nothing here knows about tasks.

/// One property: `DUE;TZID=Europe/Paris:20261201T090000`.
struct ICalendarProperty: Equatable {
    /// Upper case.
    var name: String
    /// Parameter names in upper case; values without their quotes.
    var parameters: [(name: String, value: String)]
    /// The raw value, still escaped.
    var value: String
    /// The line it starts on (1-based), for error messages.
    var line: Int

    init(_ name: String, _ parameters: [(name: String, value: String)] = [], value: String, line: Int = 0) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// The first parameter named `name` (give it in upper case).
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    static func == (lhs: ICalendarProperty, rhs: ICalendarProperty) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value && lhs.line == rhs.line
            && lhs.parameters.map(\.name) == rhs.parameters.map(\.name) && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
    }
}

/// A component (`VCALENDAR`, `VTODO`, `VALARM`, …) with its properties and sub-components.
struct ICalendarComponent {
    /// Upper case.
    var name: String
    var properties: [ICalendarProperty] = []
    var components: [ICalendarComponent] = []
    /// The line of its `BEGIN:`.
    var line = 0

    init(_ name: String, line: Int = 0) {
        self.name = name
        self.line = line
    }

    /// The first property named `name` (give it in upper case).
    func property(_ name: String) -> ICalendarProperty? { properties.first { $0.name == name } }

    /// Every property named `name`.
    func properties(_ name: String) -> [ICalendarProperty] { properties.filter { $0.name == name } }
}

enum ICalendarText {
    // MARK: Reading

    /// The deepest nesting of components read (VCALENDAR is level 1, a VTODO level 2, its
    /// VALARM level 3); deeper files are refused. It keeps the component tree, and every
    /// walk over it, shallow whatever the input.
    static let maximumDepth = 32

    /// The top-level components of a file, at most `maximumDepth` deep. Accepts CRLF or bare LF, folded lines (a fold
    /// may split a multi-byte character: lines are joined as bytes before decoding) and
    /// long unfolded lines.
    static func parse(_ data: Data) throws -> [ICalendarComponent] {
        var roots: [ICalendarComponent] = []
        var open: [ICalendarComponent] = []
        for (bytes, line) in unfold(data) {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw ImportError(.line(line), field: nil, "The line is not valid UTF-8 text.")
            }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let property = try contentLine(bytes, text: text, line: line)
            switch property.name {
            case "BEGIN":
                guard open.count < maximumDepth else {
                    throw ImportError(.line(line), field: nil,
                                      "BEGIN:\(property.value) is nested \(open.count + 1) components deep; at most \(maximumDepth) are allowed.")
                }
                open.append(ICalendarComponent(property.value.uppercased(), line: line))
            case "END":
                guard let component = open.popLast() else {
                    throw ImportError(.line(line), field: nil, "END:\(property.value) closes no component.")
                }
                guard component.name == property.value.uppercased() else {
                    throw ImportError(.line(line), field: nil, "END:\(property.value) does not close BEGIN:\(component.name) (line \(component.line)).")
                }
                if open.isEmpty { roots.append(component) } else { open[open.count - 1].components.append(component) }
            default:
                guard !open.isEmpty else {
                    throw ImportError(.line(line), field: property.name, "\(property.name) is outside any BEGIN:VCALENDAR … END:VCALENDAR.")
                }
                open[open.count - 1].properties.append(property)
            }
        }
        if let unclosed = open.last {
            throw ImportError(.line(unclosed.line), field: nil, "BEGIN:\(unclosed.name) is never closed by END:\(unclosed.name).")
        }
        return roots
    }

    /// The logical lines as bytes, each with the number of its first physical line.
    static func unfold(_ data: Data) -> [(bytes: [UInt8], line: Int)] {
        var lines: [(bytes: [UInt8], line: Int)] = []
        var number = 0
        var bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var start = 0
        while start < bytes.count {
            number += 1
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var physical = bytes[start..<end]
            if physical.last == 0x0D { physical = physical.dropLast() }
            if let first = physical.first, first == 0x20 || first == 0x09, !lines.isEmpty {
                lines[lines.count - 1].bytes += physical.dropFirst()
            } else {
                lines.append((Array(physical), number))
            }
            start = end + 1
        }
        return lines
    }

    /// Splits `NAME;PARAM=value;PARAM="quoted":value`: `bytes` are the line's UTF-8, `text`
    /// the same line as a String (for error messages).
    ///
    /// Read as bytes: every delimiter is ASCII, and no byte of a multi-byte UTF-8 character
    /// is, so each piece ends where the same walk over the characters would end it. (Over
    /// an array of Unicode scalars, with the name trimmed through NSString, this was the
    /// largest part of reading a PUT's body.)
    static func contentLine(_ bytes: [UInt8], text: String, line: Int) throws -> ICalendarProperty {
        let semicolon: UInt8 = 0x3B, colon: UInt8 = 0x3A, equals: UInt8 = 0x3D, comma: UInt8 = 0x2C, quote: UInt8 = 0x22
        var index = 0
        // Built only when thrown: every line of every PUT passes here.
        func notContentLine() -> ImportError {
            ImportError(.line(line), field: nil, "'\(text.prefix(40))' is not an iCalendar line (NAME:value).")
        }
        while index < bytes.count, bytes[index] != semicolon, bytes[index] != colon { index += 1 }
        let name = trimmingSpaces(String(decoding: bytes[..<index], as: UTF8.self)).uppercased()
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") })
        else { throw notContentLine() }
        var parameters: [(name: String, value: String)] = []
        while index < bytes.count, bytes[index] == semicolon {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != equals, bytes[index] != colon, bytes[index] != semicolon { index += 1 }
            let parameterName = String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
            var values: [String] = []
            if index < bytes.count, bytes[index] == equals {
                repeat {
                    index += 1
                    if index < bytes.count, bytes[index] == quote {
                        index += 1
                        let start = index
                        while index < bytes.count, bytes[index] != quote { index += 1 }
                        guard index < bytes.count else {
                            throw ImportError(.line(line), field: name, "\(name) has a parameter value with no closing quote.")
                        }
                        values.append(String(decoding: bytes[start..<index], as: UTF8.self))
                        index += 1
                    } else {
                        let start = index
                        while index < bytes.count, bytes[index] != semicolon, bytes[index] != colon, bytes[index] != comma { index += 1 }
                        values.append(String(decoding: bytes[start..<index], as: UTF8.self))
                    }
                } while index < bytes.count && bytes[index] == comma
            }
            parameters.append((parameterName, values.joined(separator: ",")))
        }
        guard index < bytes.count, bytes[index] == colon else { throw notContentLine() }
        let value = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        return ICalendarProperty(name, parameters, value: value, line: line)
    }

    /// `text` without leading and trailing white space as `CharacterSet.whitespaces` has it
    /// (tab and the space separators, Unicode's Zs), read scalar by scalar.
    static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return text }
        return String(scalars[first...last])
    }

    /// A TEXT value with its escapes (`\\`, `\;`, `\,`, `\n`, `\N`) undone.
    static func unescape(_ value: some StringProtocol) -> String {
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("\\") }
        return result
    }

    /// A list of TEXT values (CATEGORIES) split on the commas that are not escaped.
    static func unescapeList(_ value: String) -> [String] {
        var items: [String] = []
        var current = ""
        var escaping = false
        for character in value {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                items.append(unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(unescape(current))
        return items
    }

    // MARK: Writing

    /// `text` escaped as a TEXT value; line breaks (CRLF, CR or LF) become `\n`.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A parameter value, quoted when it holds `:`, `;` or `,`.
    static func parameterValue(_ value: String) -> String {
        let plain = value.filter { $0 != "\"" }
        return plain.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(plain)\"" : plain
    }

    /// A property's content line, folded, ending in CRLF.
    static func line(_ name: String, _ parameters: [(String, String)] = [], _ value: String) -> String {
        var text = name
        for (parameter, parameterValue) in parameters { text += ";\(parameter)=\(self.parameterValue(parameterValue))" }
        return fold(text + ":" + value)
    }

    /// Folds a content line at 75 octets, never inside a UTF-8 character: each following
    /// line starts with a space and holds at most 74 octets more. Ends in CRLF.
    static func fold(_ line: String) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count > 75 else { return line + "\r\n" }
        var output: [UInt8] = []
        var start = 0
        var limit = 75
        while start < bytes.count {
            var end = min(start + limit, bytes.count)
            // Back up to the start of a character: continuation bytes are 10xxxxxx.
            while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if start > 0 { output.append(0x20) }
            output += bytes[start..<end]
            output += [0x0D, 0x0A]
            start = end
            limit = 74
        }
        return String(decoding: output, as: UTF8.self)
    }
}

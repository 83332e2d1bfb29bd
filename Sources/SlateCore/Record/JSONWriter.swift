import Foundation

/// Writes public records and API responses as compact JSON with keys in a fixed (byte) order.
///
/// `JSONSerialization` bridges every dictionary to `NSDictionary` on Linux and sorts keys
/// with a locale-aware comparison; on the list endpoint that was 80% of the CPU
/// (bench/server). This writer walks the same `[String: Any]` trees directly, and writes
/// values that know their own JSON (`JSONWritable`, such as `TaskJSON`) without building
/// a dictionary at all.
public enum JSONWriter {
    /// The JSON text of `value` (dictionaries, arrays, strings, numbers, Bools, NSNull, `JSONWritable`).
    public static func data(_ value: Any) -> Data {
        var output = JSONOutput()
        // A whole answer that writes itself (a task's `TaskJSON`) is asked first: reached
        // through `write`, it failed seven casts on the way (4,000 instructions of a GET).
        if let writable = value as? any JSONWritable {
            writable.writeJSON(into: &output)
        } else {
            write(value, into: &output)
        }
        return Data(output.bytes)
    }

    /// Appends the JSON text of `value` to `output`.
    public static func write(_ value: Any, into output: inout JSONOutput) {
        // Containers are matched before the class types (NSNull, NSNumber): casting a Swift
        // dictionary or array to a class bridges the whole tree to Foundation objects first,
        // which cost more than writing it.
        switch value {
        case let text as String:
            output.string(text)
        case let flag as Bool where type(of: value) == Bool.self:
            output.bool(flag)
        case let number as Int:
            output.int(number)
        case let number as Double:
            output.double(number)
        case let object as [String: Any]:
            output.bytes.append(UInt8(ascii: "{"))
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { output.bytes.append(UInt8(ascii: ",")) }
                output.key(key)
                write(object[key]!, into: &output)
            }
            output.bytes.append(UInt8(ascii: "}"))
        case let strings as [String]:
            output.strings(strings)
        case let array as [Any]:
            output.bytes.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { output.bytes.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.bytes.append(UInt8(ascii: "]"))
        case let writable as any JSONWritable:
            writable.writeJSON(into: &output)
        case is NSNull:
            output.null()
        case let number as NSNumber:
            output.bytes += Array(number.stringValue.utf8)
        default:
            output.null()
        }
    }
}

/// A value that writes its own JSON, for response trees built as `[String: Any]`.
public protocol JSONWritable {
    /// Appends this value's JSON text.
    func writeJSON(into output: inout JSONOutput)
}

/// Compact JSON text being written, in the forms `JSONWriter` gives each Swift value.
public struct JSONOutput {
    /// The text so far, as UTF-8.
    public var bytes: [UInt8] = []

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    public mutating func null() { bytes += Self.nullBytes }

    public mutating func bool(_ flag: Bool) { bytes += flag ? Self.trueBytes : Self.falseBytes }

    public mutating func int(_ number: Int) {
        if number >= 0, number < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(number))
        } else {
            bytes += String(number).utf8
        }
    }

    public mutating func double(_ number: Double) {
        if number.isFinite { bytes += String(number).utf8 } else { null() }
    }

    public mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    /// `"key":`; keys are written as strings are.
    public mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// `,"key":`: an object's member after its first.
    public mutating func nextKey(_ key: String) {
        comma()
        self.key(key)
    }

    /// An array of strings.
    public mutating func strings(_ texts: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { comma() }
            string(text)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A quoted string, escaping what JSON requires.
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Most text has nothing to escape: copied in one go.
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0..<0x20:
                    bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                              Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]]
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A lower-case UUID string, as the API writes ids.
    public mutating func id(_ id: UUID) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 38) { text in
            text[0] = UInt8(ascii: "\"")
            var position = 1
            withUnsafeBytes(of: id.uuid) { raw in
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = Self.digit(raw[index] >> 4)
                    text[position + 1] = Self.digit(raw[index] & 0xF)
                    position += 2
                }
            }
            text[37] = UInt8(ascii: "\"")
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// Lower-case hex digits, read without an array's bounds and uniqueness checks.
    private static let hexDigits: StaticString = "0123456789abcdef"

    private static func digit(_ value: UInt8) -> UInt8 { hexDigits.utf8Start[Int(value)] }

    private static let hex = Array("0123456789abcdef".utf8)
    private static let nullBytes = Array("null".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
}

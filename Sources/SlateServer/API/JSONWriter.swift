import Foundation

/// Writes API responses as compact JSON with keys in a fixed (byte) order.
///
/// `JSONSerialization` bridges every dictionary to `NSDictionary` on Linux and sorts keys
/// with a locale-aware comparison; on the list endpoint that was 80% of the CPU
/// (bench/server). This writer walks the same `[String: Any]` trees directly.
enum JSONWriter {
    static func data(_ value: Any) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        write(value, into: &output)
        return Data(output)
    }

    private static func write(_ value: Any, into output: inout [UInt8]) {
        switch value {
        case let text as String:
            writeString(text, into: &output)
        case let flag as Bool where type(of: value) == Bool.self:
            output += flag ? Array("true".utf8) : Array("false".utf8)
        case let number as Int:
            output += Array(String(number).utf8)
        case let number as Double:
            output += number.isFinite ? Array(String(number).utf8) : Array("null".utf8)
        case is NSNull:
            output += Array("null".utf8)
        case let object as [String: Any]:
            output.append(UInt8(ascii: "{"))
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                write(object[key]!, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        case let array as [Any]:
            output.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case let number as NSNumber:
            output += Array(number.stringValue.utf8)
        default:
            output += Array("null".utf8)
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

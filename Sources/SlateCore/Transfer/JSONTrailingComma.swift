import Foundation

/// A comma after the last member of an object or array (`{"title":"x",}`), which JSON does
/// not allow and `JSONSerialization` on Linux reads without a word: Slate refuses such a
/// document, as a strict parser would.
public enum JSONTrailingComma {
    /// The line (1-based) of the first `}` or `]` that follows a comma, or nil when there is
    /// none. Meant for text that has already parsed: strings are skipped, nothing else checked.
    public static func line(in data: Data) -> Int? {
        data.withUnsafeBytes { raw in line(in: raw.bindMemory(to: UInt8.self)) }
    }

    private static func line(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var line = 1
        var afterComma = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            case UInt8(ascii: ","):
                afterComma = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if afterComma { return line }
            case UInt8(ascii: "\""):
                afterComma = false
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
            default:
                afterComma = false
            }
            index += 1
        }
        return nil
    }
}

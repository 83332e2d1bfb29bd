import Foundation

/// The JSON text of a `json` column holding an array, written without `JSONEncoder` when
/// that gives the same bytes: an empty array, or an array of strings. A `JSONEncoder` per
/// row and column was 16k instructions of each imported task (two array columns, tags and
/// alerts, most of them empty). Anything else goes through `JSONEncoder` as before.
enum JSONColumnText {
    /// `values` as `JSONEncoder` (sorted keys) writes it, or nil when it failed.
    static func array<Element: Encodable>(_ values: [Element]) -> String? {
        if values.isEmpty { return "[]" }
        // The same type, known without a cast of every element.
        if Element.self == String.self { return strings(unsafeBitCast(values, to: [String].self)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(values) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// An array of strings with `JSONEncoder`'s escapes: `"`, `\` and `/` behind a
    /// backslash, `\b \f \n \r \t` by name, other characters below U+0020 as `\u00xx`, all
    /// else as it is (UTF-8).
    static func strings(_ strings: [String]) -> String {
        var text: [UInt8] = [UInt8(ascii: "[")]
        let hex: StaticString = "0123456789abcdef"
        for (index, string) in strings.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text += [UInt8(ascii: "\\"), byte]
                case 0x08: text += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
                case 0x0C: text += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
                case 0x0A: text += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: text += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: text += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0..<0x20:
                    text += Array("\\u00".utf8)
                    text += [hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0xF)]]
                default: text.append(byte)
                }
            }
            text.append(UInt8(ascii: "\""))
        }
        text.append(UInt8(ascii: "]"))
        return String(decoding: text, as: UTF8.self)
    }
}

import Foundation

/// Ids as the store writes them: the canonical upper-case `8-4-4-4-12` text of
/// `UUID.uuidString`, written and read here byte by byte. Foundation formats with
/// `snprintf` and parses with `sscanf`: about 13,000 and 17,000 instructions an id, more
/// than the rest of staging a row for insertion (callgrind, bench/store).
public enum UUIDText {
    private static let digits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The same text as `uuid.uuidString`.
    static func format(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    let byte = bytes[index]
                    text[position] = digits[Int(byte >> 4)]
                    text[position + 1] = digits[Int(byte & 0x0F)]
                    position += 2
                }
                return 36
            }
        }
    }

    /// The UUID in canonical `8-4-4-4-12` text, digits in either case; nil for anything else.
    ///
    /// Every id column of every row read goes through here, so it is one table lookup per
    /// digit and a single check at the end (a listing of 10,000 resources parsed 30,000).
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36, let base = text.baseAddress,
              base[8] == dash, base[13] == dash, base[18] == dash, base[23] == dash
        else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        // Any byte that is not a hexadecimal digit maps to 0xFF: OR-ed together, a bad
        // digit shows in the high bit.
        var invalid: UInt8 = 0
        withUnsafeMutableBytes(of: &raw) { output in
            hexValues.withUnsafeBufferPointer { values in
                for byteIndex in 0..<16 {
                    let position = Int(digitPositions[byteIndex])
                    let high = values[Int(base[position])], low = values[Int(base[position + 1])]
                    invalid |= high | low
                    output[byteIndex] = high << 4 | (low & 0x0F)
                }
            }
        }
        return invalid & 0x80 == 0 ? UUID(uuid: raw) : nil
    }

    private static let dash = UInt8(ascii: "-")

    /// Where the two digits of each of the 16 bytes start in the text.
    private static let digitPositions: [UInt8] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

    /// Each byte's value as a hexadecimal digit (either case), 0xFF for any other byte.
    private static let hexValues: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }

    /// `parse`, then whatever else `UUID(uuidString:)` accepts: the same answers, without
    /// `sscanf` for the canonical form.
    public static func uuid(_ text: String) -> UUID? {
        var text = text
        if let uuid = text.withUTF8({ parse($0) }) { return uuid }
        return UUID(uuidString: text)
    }
}

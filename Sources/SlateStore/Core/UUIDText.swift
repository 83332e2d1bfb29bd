import Foundation

/// Ids as the store writes them: the canonical upper-case `8-4-4-4-12` text of
/// `UUID.uuidString`, written and read here byte by byte. Foundation formats with
/// `snprintf` and parses with `sscanf`: about 13,000 and 17,000 instructions an id, more
/// than the rest of staging a row for insertion (callgrind, bench/store).
enum UUIDText {
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
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &raw) { output -> Bool in
            var position = 0
            for byteIndex in 0..<16 {
                if byteIndex == 4 || byteIndex == 6 || byteIndex == 8 || byteIndex == 10 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = hexValue(text[position]), let low = hexValue(text[position + 1]) else { return false }
                output[byteIndex] = high << 4 | low
                position += 2
            }
            return true
        }
        return ok ? UUID(uuid: raw) : nil
    }

    /// `parse`, then whatever else `UUID(uuidString:)` accepts.
    static func uuid(_ text: String) -> UUID? {
        var text = text
        if let uuid = text.withUTF8({ parse($0) }) { return uuid }
        return UUID(uuidString: text)
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

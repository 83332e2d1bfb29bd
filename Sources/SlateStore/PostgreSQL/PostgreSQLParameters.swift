import Foundation

/// Bound values in libpq's binary form: bigint and double precision as 8 big-endian bytes,
/// text as its UTF-8 bytes, bytea as its bytes, NULL as no pointer. Binary needs no escaping
/// and reads back bit for bit (a date's last bits included).
struct PostgreSQLParameters {
    private var bytes: [UInt8] = []
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var isNull: [Bool] = []

    init(_ arguments: [DatabaseValue]) {
        for argument in arguments {
            offsets.append(bytes.count)
            switch argument {
            case .null:
                isNull.append(true)
                lengths.append(0)
                continue
            case .integer(let value):
                withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
            case .real(let value):
                withUnsafeBytes(of: value.bitPattern.bigEndian) { bytes.append(contentsOf: $0) }
            case .text(let text):
                bytes.append(contentsOf: text.utf8)
            case .blob(let data):
                bytes.append(contentsOf: data)
            }
            isNull.append(false)
            lengths.append(Int32(bytes.count - offsets[offsets.count - 1]))
        }
        // A zero-length text still needs a valid pointer: keep one byte beyond the end.
        bytes.append(0)
    }

    /// Calls `body` with libpq's three parallel arrays: value pointers, lengths and formats.
    mutating func withPointers<T>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        let formats = [Int32](repeating: 1, count: lengths.count)
        let offsets = self.offsets, isNull = self.isNull
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            let pointers: [UnsafePointer<CChar>?] = offsets.indices.map { index in
                isNull[index] ? nil : (base + offsets[index]).assumingMemoryBound(to: CChar.self)
            }
            return pointers.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}

/// Rewrites `?` placeholders as PostgreSQL's `$1…$n`, leaving string literals, quoted
/// identifiers and comments alone. The store writes no `?` operator (jsonb's), so every
/// other `?` is a placeholder.
enum PostgreSQLPlaceholders {
    static func numbered(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var output: [UInt8] = []
        output.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: UInt8? = nil
        var inLineComment = false
        var previous: UInt8 = 0
        for byte in sql.utf8 {
            defer { previous = byte }
            if inLineComment {
                if byte == UInt8(ascii: "\n") { inLineComment = false }
                output.append(byte)
                continue
            }
            if let open = quote {
                if byte == open { quote = nil }
                output.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                quote = byte
                output.append(byte)
            case UInt8(ascii: "-") where previous == UInt8(ascii: "-"):
                inLineComment = true
                output.append(byte)
            case UInt8(ascii: "?"):
                number += 1
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(number).utf8)
            default:
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

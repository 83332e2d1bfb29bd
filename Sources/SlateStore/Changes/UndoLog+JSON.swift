import Foundation

extension UndoLog.Entry {
    /// The entry as the JSON `JSONEncoder` writes for it (the same keys and shapes, so
    /// `JSONDecoder` reads it back as before), written directly: with group commit the
    /// writer thread is the limit of durable writes, and encoding the row images through
    /// `Codable` was 40 % of its time per change (perf, bench/server's PATCH line).
    /// Falls back to `JSONEncoder` for a value JSON cannot hold (a non-finite real), so
    /// the error stays the one it was.
    func encodedJSON() throws -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(256 + images.count * 1024)
        var ok = true
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: String) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            UndoJSON.string(name, into: &out)
            out.append(UInt8(ascii: ":"))
        }
        if let label {
            key("label")
            UndoJSON.string(label, into: &out)
        }
        key("images")
        out.append(UInt8(ascii: "["))
        for (index, image) in images.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            UndoJSON.literal("{\"table\":", into: &out)
            UndoJSON.string(image.table, into: &out)
            UndoJSON.literal(",\"id\":", into: &out)
            UndoJSON.string(image.id, into: &out)
            if let before = image.before {
                UndoJSON.literal(",\"before\":", into: &out)
                ok = UndoJSON.row(before, into: &out) && ok
            }
            if let after = image.after {
                UndoJSON.literal(",\"after\":", into: &out)
                ok = UndoJSON.row(after, into: &out) && ok
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        for (name, map) in [("created", created), ("createdDigests", createdDigests)] {
            guard let map else { continue }
            key(name)
            out.append(UInt8(ascii: "{"))
            for (index, (table, text)) in map.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                UndoJSON.string(table, into: &out)
                out.append(UInt8(ascii: ":"))
                UndoJSON.string(text, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        if let createdRevision {
            key("createdRevision")
            out.append(contentsOf: String(createdRevision).utf8)
        }
        out.append(UInt8(ascii: "}"))
        guard ok else { return try JSONEncoder().encode(self) }
        return Data(out)
    }
}

/// The pieces of `UndoLog.Entry.encodedJSON`.
enum UndoJSON {
    /// `{"values":{"column":value,…}}`, as `Row`'s synthesized `Codable` writes it; false
    /// when a value has no JSON form.
    static func row(_ row: Row, into out: inout [UInt8]) -> Bool {
        var ok = true
        literal("{\"values\":{", into: &out)
        for (index, (column, value)) in row.values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            string(column, into: &out)
            out.append(UInt8(ascii: ":"))
            ok = self.value(value, into: &out) && ok
        }
        literal("}}", into: &out)
        return ok
    }

    /// `{"null":{}}`, `{"integer":{"_0":5}}`, … as `DatabaseValue`'s synthesized `Codable` writes it.
    static func value(_ value: DatabaseValue, into out: inout [UInt8]) -> Bool {
        switch value {
        case .null:
            literal("{\"null\":{}}", into: &out)
        case .integer(let number):
            literal("{\"integer\":{\"_0\":", into: &out)
            out.append(contentsOf: String(number).utf8)
            literal("}}", into: &out)
        case .real(let number):
            guard number.isFinite else { return false }
            literal("{\"real\":{\"_0\":", into: &out)
            out.append(contentsOf: "\(number)".utf8)
            literal("}}", into: &out)
        case .text(let text):
            literal("{\"text\":{\"_0\":", into: &out)
            string(text, into: &out)
            literal("}}", into: &out)
        case .blob(let data):
            literal("{\"blob\":{\"_0\":", into: &out)
            string(data.base64EncodedString(), into: &out)
            literal("}}", into: &out)
        }
        return true
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    /// The runs between bytes to escape are copied whole: byte by byte, a CalDAV PUT's
    /// images (its stored calendar bytes, twice) cost about 150,000 instructions.
    static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): literal("\\\"", into: &out)
                case UInt8(ascii: "\\"): literal("\\\\", into: &out)
                default:
                    literal("\\u00", into: &out)
                    let hex: StaticString = "0123456789abcdef"
                    out.append(hex.utf8Start[Int(byte >> 4)])
                    out.append(hex.utf8Start[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A fixed piece of JSON, appended from its static bytes (an `Array` of a string's
    /// bytes made for each was a tenth of the entry's cost).
    static func literal(_ text: StaticString, into out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}

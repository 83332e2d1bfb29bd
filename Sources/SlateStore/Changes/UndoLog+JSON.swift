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
            out += Array("{\"table\":".utf8)
            UndoJSON.string(image.table, into: &out)
            out += Array(",\"id\":".utf8)
            UndoJSON.string(image.id, into: &out)
            if let before = image.before {
                out += Array(",\"before\":".utf8)
                ok = UndoJSON.row(before, into: &out) && ok
            }
            if let after = image.after {
                out += Array(",\"after\":".utf8)
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
            out += Array(String(createdRevision).utf8)
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
        out += Array("{\"values\":{".utf8)
        for (index, (column, value)) in row.values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            string(column, into: &out)
            out.append(UInt8(ascii: ":"))
            ok = self.value(value, into: &out) && ok
        }
        out += Array("}}".utf8)
        return ok
    }

    /// `{"null":{}}`, `{"integer":{"_0":5}}`, … as `DatabaseValue`'s synthesized `Codable` writes it.
    static func value(_ value: DatabaseValue, into out: inout [UInt8]) -> Bool {
        switch value {
        case .null:
            out += Array("{\"null\":{}}".utf8)
        case .integer(let number):
            out += Array("{\"integer\":{\"_0\":".utf8)
            out += Array(String(number).utf8)
            out += Array("}}".utf8)
        case .real(let number):
            guard number.isFinite else { return false }
            out += Array("{\"real\":{\"_0\":".utf8)
            out += Array("\(number)".utf8)
            out += Array("}}".utf8)
        case .text(let text):
            out += Array("{\"text\":{\"_0\":".utf8)
            string(text, into: &out)
            out += Array("}}".utf8)
        case .blob(let data):
            out += Array("{\"blob\":{\"_0\":".utf8)
            string(data.base64EncodedString(), into: &out)
            out += Array("}}".utf8)
        }
        return true
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

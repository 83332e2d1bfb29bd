import CPostgreSQL
import Foundation

/// A query's result as libpq holds it (text format), read by row and column. Values map to
/// the same `DatabaseValue`s SQLite gives: integers (booleans as 0 and 1), doubles, text,
/// bytes. Freed when the last reference goes.
final class PostgreSQLRows {
    /// How a column's text is read.
    enum Kind {
        case integer, real, text, blob, boolean, numeric
    }

    let handle: OpaquePointer
    let rowCount: Int32
    let columnCount: Int32
    private let kinds: [Kind]

    init(_ handle: OpaquePointer) {
        self.handle = handle
        rowCount = PQntuples(handle)
        columnCount = PQnfields(handle)
        kinds = (0..<columnCount).map { column in
            switch PQftype(handle, column) {
            case PostgreSQLType.int8, PostgreSQLType.int4, PostgreSQLType.int2, PostgreSQLType.oid: .integer
            case PostgreSQLType.float8, PostgreSQLType.float4: .real
            case PostgreSQLType.bool: .boolean
            case PostgreSQLType.bytea: .blob
            case PostgreSQLType.numeric: .numeric
            default: .text
            }
        }
    }

    deinit { PQclear(handle) }

    func columnName(_ column: Int32) -> String { String(cString: PQfname(handle, column)) }

    @inline(__always)
    func isNull(_ row: Int32, _ column: Int32) -> Bool { PQgetisnull(handle, row, column) == 1 }

    @inline(__always)
    func isText(_ row: Int32, _ column: Int32) -> Bool { kinds[Int(column)] == .text && !isNull(row, column) }

    @inline(__always)
    private func bytes(_ row: Int32, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        let start = UnsafeRawPointer(PQgetvalue(handle, row, column)!).assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: start, count: Int(PQgetlength(handle, row, column)))
    }

    func int64(_ row: Int32, _ column: Int32) -> Int64 {
        guard !isNull(row, column) else { return 0 }
        switch kinds[Int(column)] {
        case .boolean: return bytes(row, column).first == UInt8(ascii: "t") ? 1 : 0
        case .real, .numeric: return Int64(exactly: double(row, column).rounded(.towardZero)) ?? 0
        default: return strtoll(PQgetvalue(handle, row, column), nil, 10)
        }
    }

    func double(_ row: Int32, _ column: Int32) -> Double {
        guard !isNull(row, column) else { return 0 }
        if kinds[Int(column)] == .boolean { return Double(int64(row, column)) }
        return strtod(PQgetvalue(handle, row, column), nil)
    }

    func text(_ row: Int32, _ column: Int32) -> String {
        guard !isNull(row, column) else { return "" }
        return String(decoding: bytes(row, column), as: UTF8.self)
    }

    func uuid(_ row: Int32, _ column: Int32) -> UUID? {
        guard isText(row, column) else { return nil }
        let text = bytes(row, column)
        if text.count == 36, let uuid = UUIDText.parse(text) { return uuid }
        return UUID(uuidString: String(decoding: text, as: UTF8.self))
    }

    /// The value as SQLite would give it.
    func value(_ row: Int32, _ column: Int32) -> DatabaseValue {
        guard !isNull(row, column) else { return .null }
        switch kinds[Int(column)] {
        case .integer, .boolean: return .integer(int64(row, column))
        case .real: return .real(double(row, column))
        case .numeric:
            let text = self.text(row, column)
            if let integer = Int64(text) { return .integer(integer) }
            return .real(Double(text) ?? 0)
        case .text: return .text(text(row, column))
        case .blob: return .blob(Self.bytea(bytes(row, column)))
        }
    }

    /// A whole row as column name → value.
    func row(_ row: Int32) -> Row {
        var values: [String: DatabaseValue] = [:]
        for column in 0..<columnCount { values[columnName(column)] = value(row, column) }
        return Row(values)
    }

    /// bytea's text form: `\x` then two hexadecimal digits per byte.
    private static func bytea(_ text: UnsafeBufferPointer<UInt8>) -> Data {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else { return Data(text) }
        var data = Data(capacity: (text.count - 2) / 2)
        var index = 2
        while index + 1 < text.count {
            guard let high = hex(text[index]), let low = hex(text[index + 1]) else { break }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

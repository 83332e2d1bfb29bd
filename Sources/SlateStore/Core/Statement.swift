import CSQLite
import Foundation

/// A prepared statement. Owned by one `Database`, used by one thread at a time.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    unowned let database: SQLiteDatabase
    /// How many parameters the statement has (`?` marks).
    let parameterCount: Int

    init(database: SQLiteDatabase, sql: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw database.error(code: code, sql: sql, arguments: [])
        }
        self.handle = handle
        self.sql = sql
        self.database = database
        parameterCount = Int(sqlite3_bind_parameter_count(handle))
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `arguments` in order, then `last` when given (a row's values and its stamp,
    /// without a new array for the two). Earlier bindings are cleared only when fewer
    /// values than parameters are given: otherwise every one is bound over.
    func bind(_ arguments: [DatabaseValue], last: DatabaseValue? = nil) throws {
        sqlite3_reset(handle)
        let count = arguments.count + (last == nil ? 0 : 1)
        if count < parameterCount { sqlite3_clear_bindings(handle) }
        for (offset, value) in arguments.enumerated() {
            try bind(value, at: Int32(offset + 1), arguments: arguments)
        }
        if let last { try bind(last, at: Int32(arguments.count + 1), arguments: arguments) }
    }

    private func bind(_ value: DatabaseValue, at index: Int32, arguments: [DatabaseValue]) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let int): code = sqlite3_bind_int64(handle, index, int)
        case .real(let double): code = sqlite3_bind_double(handle, index, double)
        case .text(let text):
            // With its byte length: as a C string (-1) SQLite would stop at the first NUL.
            var text = text
            code = text.withUTF8 { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    return sqlite3_bind_text(handle, index, "", 0, slate_sqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(bytes.count), slate_sqlite_transient())
                }
            }
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), slate_sqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw database.error(code: code, sql: sql, arguments: arguments) }
    }

    /// Advances to the next row; false when done.
    func step(arguments: [DatabaseValue] = []) throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(code: code, sql: sql, arguments: arguments)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion with `arguments` (and `last` after them).
    func execute(_ arguments: [DatabaseValue] = [], last: DatabaseValue? = nil) throws {
        try bind(arguments, last: last)
        defer { sqlite3_reset(handle) }
        while try step(arguments: arguments) {}
    }

    var columnCount: Int32 { sqlite3_column_count(handle) }

    func columnName(_ index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }

    /// The value of column `index` of the current row.
    func value(at index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(text(at: index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
    func isText(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_TEXT }
    func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
    func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }
    func text(at index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The text of column `index` as a UUID, read from the bytes in place: the canonical
    /// `8-4-4-4-12` form in either case, else whatever `UUID(uuidString:)` accepts.
    /// (Foundation parses with `sscanf`, which was a tenth of a list page's CPU.)
    func uuid(at index: Int32) -> UUID? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        let text = UnsafeBufferPointer(start: bytes, count: count)
        if let uuid = UUIDText.parse(text) { return uuid }
        return UUID(uuidString: String(decoding: text, as: UTF8.self))
    }

    /// The current row as column name → value.
    func row() -> Row {
        var values: [String: DatabaseValue] = [:]
        for index in 0..<columnCount { values[columnName(index)] = value(at: index) }
        return Row(values)
    }
}

/// One fetched row, by column name.
public struct Row: Sendable, Hashable, Codable {
    /// Column name → value.
    public var values: [String: DatabaseValue]

    public init(_ values: [String: DatabaseValue]) { self.values = values }

    /// The value of `column`, `.null` when absent.
    public subscript(column: String) -> DatabaseValue { values[column] ?? .null }
}

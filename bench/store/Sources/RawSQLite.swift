import CSQLite
import Foundation

/// The thinnest useful layer over the sqlite3 C API for the hand-written side: open,
/// run a script, prepare. Binding and reading stay explicit `sqlite3_*` calls in
/// `RawWorkload`, as they would in a hand-tuned loop.
final class RawConnection {
    let handle: OpaquePointer

    /// Opens `path` read-write with the settings SlateStore's writer uses: WAL,
    /// `synchronous = FULL`, foreign keys on, and SQLite's default (serialized)
    /// threading mode, which is also what SlateStore opens with.
    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil)
        guard code == SQLITE_OK, let handle else {
            if let handle { sqlite3_close_v2(handle) }
            throw RawError(message: "cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        self.handle = handle
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs statements without arguments.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw RawError(message: "\(message.map { String(cString: $0) } ?? "error") in \(sql)")
        }
    }

    /// Prepares one statement; the caller finalizes it.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, 0, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        return statement
    }

    /// The error for a failed call, with SQLite's message.
    func failure(_ context: String) -> RawError {
        RawError(message: "\(String(cString: sqlite3_errmsg(handle))) in \(context)")
    }
}

/// A failure on the raw side.
struct RawError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes, as SlateStore's binding does.
let transient = slate_sqlite_transient()

/// Binds a Swift string (its UTF-8 bytes, no conversion) or NULL.
@inline(__always)
func bindText(_ statement: OpaquePointer, _ index: Int32, _ value: String?) {
    guard var text = value else {
        sqlite3_bind_null(statement, index)
        return
    }
    text.withUTF8 { bytes in
        _ = bytes.withMemoryRebound(to: CChar.self) {
            sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), transient)
        }
    }
}

/// Binds a date as REAL seconds since 2001 (SlateStore's format) or NULL.
@inline(__always)
func bindDate(_ statement: OpaquePointer, _ index: Int32, _ date: Date?) {
    guard let date else {
        sqlite3_bind_null(statement, index)
        return
    }
    sqlite3_bind_double(statement, index, date.timeIntervalSinceReferenceDate)
}

/// The text of a column as a Swift string; nil for NULL.
@inline(__always)
func columnText(_ statement: OpaquePointer, _ index: Int32) -> String? {
    guard let bytes = sqlite3_column_text(statement, index) else { return nil }
    let count = Int(sqlite3_column_bytes(statement, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
}

/// A UUID column; nil for NULL or text that is not a UUID.
@inline(__always)
func columnUUID(_ statement: OpaquePointer, _ index: Int32) -> UUID? {
    columnText(statement, index).flatMap(UUID.init(uuidString:))
}

/// A date column; nil for NULL.
@inline(__always)
func columnDate(_ statement: OpaquePointer, _ index: Int32) -> Date? {
    sqlite3_column_type(statement, index) == SQLITE_NULL
        ? nil : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, index))
}

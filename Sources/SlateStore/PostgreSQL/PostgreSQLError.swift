import CPostgreSQL
import Foundation

/// The details of a failed PostgreSQL call: its SQLSTATE, the server's message, and the
/// SQL with its arguments (shown by `debugDescription` only, as they may be private).
public struct PostgreSQLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The five-character SQLSTATE, such as `23505` for a unique violation.
    public var sqlState: String
    /// The server's (or libpq's) message.
    public var message: String
    /// The statement that failed, if any.
    public var sql: String?
    /// The bound arguments.
    public var arguments: [DatabaseValue]

    public var description: String {
        var text = "PostgreSQL error \(sqlState): \(message)"
        if let sql { text += " — while running: \(sql)" }
        return text
    }

    /// The description with the bound arguments.
    public var debugDescription: String {
        description + (arguments.isEmpty ? "" : " with arguments \(arguments)")
    }

    /// The store error for a failed call: typed where SQLite's would be (constraints, locks,
    /// read-only), `.unavailable` when the server cannot be reached, else `.postgreSQL`.
    static func failure(
        of connection: OpaquePointer, result: OpaquePointer?, sql: String?, arguments: [DatabaseValue], location: PostgreSQLLocation
    ) -> StoreError {
        func field(_ code: Int32) -> String? {
            guard let result, let value = PQresultErrorField(result, code) else { return nil }
            return String(cString: value)
        }
        let lost = PQstatus(connection) != CONNECTION_OK
        let primary = field(slate_pg_diag_message_primary())
            ?? String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let state = field(slate_pg_diag_sqlstate()), !lost else {
            return .unavailable(database: location.description, reason: lost ? "the connection to the server was lost (\(primary))" : primary)
        }
        let table = field(slate_pg_diag_table_name()) ?? "database"
        let detail = field(slate_pg_diag_message_detail()) ?? ""
        switch state {
        case "23505":
            let columns = Self.keyColumns(in: detail).map { "\(table).\($0)" }.joined(separator: ", ")
            return .constraintViolation(table: table, message: "UNIQUE constraint failed: \(columns.isEmpty ? table : columns)")
        case "23503":
            if let parent = Self.quoted(after: "is not present in table ", in: detail) {
                return .constraintViolation(table: table, message: "a row refers to a missing \(parent) row (FOREIGN KEY constraint failed)")
            }
            let child = Self.quoted(after: "is still referenced from table ", in: detail) ?? "another table"
            return .constraintViolation(table: table, message: "a row of \(child) still refers to it (FOREIGN KEY constraint failed)")
        case "23502":
            let column = field(Int32(UInt8(ascii: "c"))) ?? "a column"
            return .constraintViolation(table: table, message: "NOT NULL constraint failed: \(table).\(column)")
        case "23514":
            return .constraintViolation(table: table, message: "CHECK constraint failed: \(field(slate_pg_diag_constraint_name()) ?? primary)")
        case "55P03", "40P01", "40001":
            return .busy(path: location.description)
        case "25006":
            return .readOnly(path: location.description)
        case "22021" where primary.contains("0x00"):
            return .postgreSQL(PostgreSQLError(
                sqlState: state, message: "PostgreSQL text cannot hold the character U+0000 (NUL); nothing was written",
                sql: sql, arguments: arguments))
        case "57P01", "57P02", "57P03", "53300":
            return .unavailable(database: location.description, reason: primary)
        default:
            if state.hasPrefix("08") { return .unavailable(database: location.description, reason: primary) }
            return .postgreSQL(PostgreSQLError(sqlState: state, message: primary, sql: sql, arguments: arguments))
        }
    }

    /// The columns of `Key (a, b)=(…)` in a constraint's detail; none for an expression.
    static func keyColumns(in detail: String) -> [String] {
        guard let open = detail.range(of: "Key ("), let close = detail.range(of: ")=", range: open.upperBound..<detail.endIndex) else {
            return []
        }
        let names = detail[open.upperBound..<close.lowerBound].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return names.allSatisfy { !$0.contains("(") } ? names : []
    }

    /// The name in double quotes after `prefix`: `table "owners"` → `owners`.
    static func quoted(after prefix: String, in text: String) -> String? {
        guard let start = text.range(of: prefix + "\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}

import Foundation

/// The fragments of SQL that differ between the backends. Everything else the store writes
/// is the same text on both (quoted identifiers, `?` placeholders, `ON CONFLICT`,
/// `RETURNING`, `coalesce`, `count(*)`).
extension SQLDialect {
    /// `column` holds `value`, NULL included (nil matches nil). SQLite's `IS ?` uses an
    /// index; PostgreSQL's `IS NOT DISTINCT FROM` cannot, so there the test is written for
    /// the value at hand: `= ?`, or `IS NULL`.
    func sameValue(_ column: String, _ value: DatabaseValue) -> (sql: String, arguments: [DatabaseValue]) {
        switch self {
        case .sqlite: ("\(column) IS ?", [value])
        case .postgreSQL: value.isNull ? ("\(column) IS NULL", []) : ("\(column) = ?", [value])
        }
    }

    /// Membership in the integers of one bound JSON array (`[1,2,3]`): one SQL text for
    /// any number of them, so the statement is prepared once.
    var inBoundIntegers: String {
        switch self {
        case .sqlite: "IN (SELECT value FROM json_each(?))"
        case .postgreSQL: "IN (SELECT CAST(j.value AS bigint) FROM jsonb_array_elements_text(CAST(? AS jsonb)) AS j(value))"
        }
    }

    /// Membership in the strings of one bound JSON array (`["a","b"]`).
    var inBoundTexts: String {
        switch self {
        case .sqlite: "IN (SELECT value FROM json_each(?))"
        case .postgreSQL: "IN (SELECT j.value FROM jsonb_array_elements_text(CAST(? AS jsonb)) AS j(value))"
        }
    }

    /// The larger of two numbers.
    func greatest(_ first: String, _ second: String) -> String {
        switch self {
        case .sqlite: "max(\(first), \(second))"
        case .postgreSQL: "GREATEST(\(first), \(second))"
        }
    }

    /// `LIMIT ? OFFSET ?` and its arguments: SQLite's "no limit" is -1, PostgreSQL's NULL.
    func limit(_ limit: Int?, offset: Int?) -> (sql: String, arguments: [DatabaseValue]) {
        let count: DatabaseValue = switch self {
        case .sqlite: .integer(Int64(limit ?? -1))
        case .postgreSQL: limit.map { .integer(Int64($0)) } ?? .null
        }
        return (" LIMIT ? OFFSET ?", [count, .integer(Int64(offset ?? 0))])
    }
}

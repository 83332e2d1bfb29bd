import Foundation

/// A fragment of SQL with the values bound to its `?` placeholders, in order.
struct SQLExpression {
    var sql: String
    var arguments: [DatabaseValue]
    /// Set when the fragment is exactly one stored column, so key paths applied to it
    /// (`.rawValue` of an enum) can still be recognised.
    var rawValueKeyPath: RawValueMatcher?
    /// The column's name, when the fragment is exactly one stored column.
    var columnName: String?
    /// When the fragment is nothing but `column == value` tests joined by AND: each column
    /// and its value (what a count index can answer, see `CountIndex`).
    var equalities: [(column: String, value: DatabaseValue)]?
    /// PostgreSQL only (SQLite has no boolean type and ignores both): true when the SQL is a
    /// boolean condition rather than a value (a stored Bool is a value, 0 or 1).
    var isCondition = false
    /// PostgreSQL only: what is known about the fragment being NULL.
    var nullness = Nullness.maybe

    /// Whether a fragment can be NULL: the translator for PostgreSQL writes `=` (which can
    /// use an index) where SQLite's `IS` would be, when one side is never NULL.
    enum Nullness {
        case never, maybe, always
    }

    init(_ sql: String, _ arguments: [DatabaseValue] = [], rawValueKeyPath: RawValueMatcher? = nil) {
        self.sql = sql
        self.arguments = arguments
        self.rawValueKeyPath = rawValueKeyPath
    }

    /// Joins fragments into one, in the order given: `"(" + a + " AND " + b + ")"`.
    static func combine(_ parts: [SQLExpression], _ makeSQL: ([String]) -> String) -> SQLExpression {
        SQLExpression(makeSQL(parts.map(\.sql)), parts.flatMap(\.arguments))
    }
}

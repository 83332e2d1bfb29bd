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

    /// Membership in the integers of one bound list, as `boundIntegers` writes it: one SQL
    /// text for any number of them, so the statement is prepared once. On PostgreSQL a
    /// bound array (`= ANY`), which the planner turns into a lookup on an index holding the
    /// column (`(accountID, _rev)`); a `jsonb_array_elements_text` subquery it could not
    /// size, and a cross-node change lookup at a million tasks took 20 ms.
    var inBoundIntegers: String {
        switch self {
        case .sqlite: "IN (SELECT value FROM json_each(?))"
        case .postgreSQL: "= ANY(CAST(? AS bigint[]))"
        }
    }

    /// Not one of the integers of one bound list (`boundIntegers`); an empty list excludes
    /// nothing.
    var notInBoundIntegers: String {
        switch self {
        case .sqlite: "NOT IN (SELECT value FROM json_each(?))"
        case .postgreSQL: "<> ALL(CAST(? AS bigint[]))"
        }
    }

    /// The list that `inBoundIntegers` and `notInBoundIntegers` take: a JSON array on SQLite
    /// (`[1,2,3]`), an array literal on PostgreSQL (`{1,2,3}`).
    func boundIntegers(_ values: some Sequence<Int>) -> DatabaseValue {
        let list = values.map(String.init).joined(separator: ",")
        return switch self {
        case .sqlite: .text("[" + list + "]")
        case .postgreSQL: .text("{" + list + "}")
        }
    }

    /// Membership in the strings of one bound JSON array (`["a","b"]`), on both backends.
    /// On PostgreSQL the array is made once (an `ARRAY(…)` init plan) and matched with
    /// `= ANY`, which uses the column's index as `inBoundIntegers` does.
    var inBoundTexts: String {
        switch self {
        case .sqlite: "IN (SELECT value FROM json_each(?))"
        case .postgreSQL: "= ANY(ARRAY(SELECT j.value FROM jsonb_array_elements_text(CAST(? AS jsonb)) AS j(value)))"
        }
    }

    /// The larger of two numbers.
    func greatest(_ first: String, _ second: String) -> String {
        switch self {
        case .sqlite: "max(\(first), \(second))"
        case .postgreSQL: "GREATEST(\(first), \(second))"
        }
    }

    /// The rows of `table`, as `alias`, that the commits after a store sequence stamped,
    /// joined to those commits (as `c`): the row's `partition` and `revision` columns hold a
    /// commit's partition and revision, and `filter` (on `alias`, with its own `?`s) holds.
    /// The caller adds `WHERE c.seq > ?` and any ORDER BY.
    ///
    /// On PostgreSQL the rows are looked up commit by commit through the table's index on
    /// the two columns, whatever the table's statistics say. Left to choose, the planner
    /// joined the commits to a scan of the whole table: the alert scheduler's look at the
    /// tasks the last hundred PATCHes changed took PostgreSQL 25-34 ms at 10,000 tasks
    /// (0.3 ms this way), and the same look at 100,000 tombstones 27 ms (2 ms). Two things
    /// steer it: `OFFSET 0` keeps the lateral subquery from being merged back into a join it
    /// would plan that way, and the revision is matched as a range of one value, because a
    /// board imported or copied in one commit has one revision on nearly every row, and from
    /// that statistic the planner takes `revision = c.revision` to match most of the table
    /// and scans it once per commit (140 ms in bench/scale); a range between two values it
    /// cannot know it takes to match few rows.
    func commitsJoin(_ table: String, as alias: String, partition: String, revision: String, filter: String? = nil) -> String {
        let also = filter.map { " AND \($0)" } ?? ""
        switch self {
        case .sqlite:
            return "\(table) AS \(alias) JOIN _slate_commits AS c ON c.partition = \(alias).\(partition) AND c.revision = \(alias).\(revision)\(also)"
        case .postgreSQL:
            let key = "\(alias).\(partition) = c.partition AND \(alias).\(revision) >= c.revision AND \(alias).\(revision) <= c.revision"
            return "_slate_commits AS c CROSS JOIN LATERAL (SELECT * FROM \(table) AS \(alias) WHERE \(key)\(also) OFFSET 0) AS \(alias)"
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

import Foundation

/// The statements of a table's count indexes (`CountIndex`), kept in `_slate_counts`: one
/// row per index and combination of values, the values as a JSON array built by SQLite
/// (`json_array`) on every path, so that a key written and a key looked up always agree.
extension TableSchema {
    /// The name a count index is stored under: unique across tables.
    func storedName(of index: CountIndex) -> String { tableName + "/" + index.name }

    /// Adds a delta to the count of one key: bind the stored name, the key's values in the
    /// index's column order, then the delta. Returns the new count.
    func countUpsertSQL(_ index: CountIndex) -> String {
        let marks = Array(repeating: "?", count: index.columns.count).joined(separator: ", ")
        return """
            INSERT INTO _slate_counts(name, key, count) VALUES (?, json_array(\(marks)), ?) \
            ON CONFLICT(name, key) DO UPDATE SET count = count + excluded.count RETURNING count
            """
    }

    /// Removes a key whose count went to 0: bind the stored name and the key's values.
    func countRemoveSQL(_ index: CountIndex) -> String {
        let marks = Array(repeating: "?", count: index.columns.count).joined(separator: ", ")
        return "DELETE FROM _slate_counts WHERE name = ? AND key = json_array(\(marks)) AND count = 0"
    }

    /// The count of one key: bind the stored name and the key's values.
    func countReadSQL(_ index: CountIndex) -> String {
        let marks = Array(repeating: "?", count: index.columns.count).joined(separator: ", ")
        return "SELECT count FROM _slate_counts WHERE name = ? AND key = json_array(\(marks))"
    }

    /// Counts every row again into the index (a migration's last step): bind the stored name.
    func countRebuildSQL(_ index: CountIndex) -> String {
        let columns = index.columns.map(quote).joined(separator: ", ")
        return "INSERT INTO _slate_counts(name, key, count) SELECT ?, json_array(\(columns)), count(*) FROM \(quote(tableName)) GROUP BY \(columns)"
    }

    /// The count index whose columns are exactly `columns`, if the table has one (a
    /// table without count indexes answers before building anything: every count asks).
    func countIndex(on columns: some Collection<String>) -> CountIndex? {
        guard !countIndexes.isEmpty else { return nil }
        let wanted = Set(columns)
        return countIndexes.first { Set($0.columns) == wanted && $0.columns.count == wanted.count }
    }
}

import Foundation

/// The DDL of a model table and of what keeps it company: indexes and the full-text index.
extension TableSchema {
    /// `CREATE TABLE` with the hidden `_pk` (stable rowid for FTS) and `_rev` columns.
    var createTableSQL: String {
        var definitions = ["\"_pk\" INTEGER PRIMARY KEY"]
        definitions += columns.map(columnDefinitionSQL)
        definitions.append("\"_rev\" INTEGER NOT NULL")
        return "CREATE TABLE \(quote(tableName)) (\(definitions.joined(separator: ", "))) STRICT"
    }

    /// `UPDATE` of the columns at `positions` (in `columns`) and `_rev`, by id: bind their
    /// values in that order, then the revision, then the id.
    func updateSQL(changing positions: [Int]) -> String {
        var sql = "UPDATE " + quote(tableName) + " SET "
        for position in positions { sql += quote(columns[position].name) + " = ?, " }
        return sql + "\"_rev\" = ? WHERE \"id\" = ?"
    }

    /// One column's definition, as used by CREATE TABLE and ALTER TABLE ADD COLUMN.
    func columnDefinitionSQL(_ column: ColumnInfo) -> String {
        var sql = "\(quote(column.name)) \(column.type.rawValue)"
        if !column.isOptional { sql += " NOT NULL" }
        if column.name == "id" { sql += " UNIQUE" }
        if let value = column.defaultValue { sql += " DEFAULT \(value.sqlLiteral)" }
        if let reference = column.reference {
            sql += " REFERENCES \(quote(reference.tableName))(\"id\") DEFERRABLE INITIALLY DEFERRED"
        }
        return sql
    }

    /// The names of the indexes `createIndexesSQL` makes.
    var indexNames: [String] {
        [revisionIndexName] + referenceIndexColumns.map(referenceIndexName) + indexes.map(\.name)
    }

    /// A reference column's own index. An optional reference's index holds only the rows
    /// that refer to something (`WHERE … IS NOT NULL`, hence its own name): it is looked up
    /// by a referenced id only (`= ?`, which implies NOT NULL, so both backends use it), and
    /// a row without a list or a parent (most imported tasks) then writes no entry in it.
    func referenceIndexName(_ column: ColumnInfo) -> String {
        tableName + "__" + column.name + (column.isOptional ? "__set" : "")
    }

    /// The `WHERE` clause of a reference column's index (empty for a required one).
    func referenceIndexCondition(_ column: ColumnInfo) -> String {
        column.isOptional ? " WHERE \(quote(column.name)) IS NOT NULL" : ""
    }

    /// The reference columns that get an index of their own: those that no declared index
    /// starts with, and not the partition column, which leads the revision index
    /// (`revisionIndexName`). A foreign key's checks and delete rules look rows up by the
    /// column alone, which an index led by it serves as well (a task's `accountID` leads all
    /// six of its indexes); one more index is one more entry for every row written (a
    /// CalDAV resource's stored body wrote two pages a PUT for an index on `accountID` alone).
    var referenceIndexColumns: [ColumnInfo] {
        columns.filter { column in
            column.reference != nil && column.name != partitionName
                && !indexes.contains { $0.columns.first.map { $0.name == column.name && !$0.ignoresCase } ?? false }
        }
    }

    /// The index change feeds read by: on `_rev`, after the partition column when there is
    /// one (revisions are per partition).
    var revisionIndexName: String { tableName + (partitionName == nil ? "__rev" : "__partition_rev") }

    /// Indexes: declared ones, one per reference column, and one on `_rev` for change feeds.
    var createIndexesSQL: [String] {
        let revisionColumns = (partitionName.map { [quote($0)] } ?? []) + ["\"_rev\""]
        var statements = [
            "CREATE INDEX IF NOT EXISTS \(quote(revisionIndexName)) ON \(quote(tableName))(\(revisionColumns.joined(separator: ", ")))"
        ]
        for column in referenceIndexColumns {
            statements.append(
                "CREATE INDEX IF NOT EXISTS \(quote(referenceIndexName(column))) ON \(quote(tableName))(\(quote(column.name)))"
                    + referenceIndexCondition(column)
            )
        }
        for index in indexes {
            let parts = index.columns.map {
                quote($0.name) + ($0.ignoresCase ? " COLLATE NOCASE" : "") + ($0.isDescending ? " DESC" : "")
            }
            statements.append(
                "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quote(index.name)) ON \(quote(tableName))(\(parts.joined(separator: ", ")))"
            )
        }
        return statements
    }

    /// The FTS5 table over the searchable columns, with external content so the text is stored once.
    var createSearchIndexSQL: String {
        let columnsSQL = searchableColumns.map(quote).joined(separator: ", ")
        return """
            CREATE VIRTUAL TABLE \(quote(ftsTableName)) USING fts5(\(columnsSQL), \
            content=\(quote(tableName)), content_rowid='_pk', tokenize='unicode61 remove_diacritics 2')
            """
    }

    /// Removes a row's text from the full-text index: rowid (`_pk`), then the text it was
    /// indexed with, in `searchableColumns` order.
    var searchDeleteSQL: String {
        let fts = quote(ftsTableName)
        let names = searchableColumns.map(quote).joined(separator: ", ")
        let marks = Array(repeating: "?", count: searchableColumns.count).joined(separator: ", ")
        return "INSERT INTO \(fts)(\(fts), rowid, \(names)) VALUES ('delete', ?, \(marks))"
    }

    /// Adds a row's text to the full-text index: rowid (`_pk`), then the text.
    var searchInsertSQL: String {
        let names = searchableColumns.map(quote).joined(separator: ", ")
        let marks = Array(repeating: "?", count: searchableColumns.count).joined(separator: ", ")
        return "INSERT INTO \(quote(ftsTableName))(rowid, \(names)) VALUES (?, \(marks))"
    }

    /// Adds the text of the rows whose `_pk` is between two bounds, read from the table
    /// itself: one statement for the rows a bulk insert added.
    var searchInsertRangeSQL: String {
        let names = searchableColumns.map(quote).joined(separator: ", ")
        return "INSERT INTO \(quote(ftsTableName))(rowid, \(names)) SELECT \"_pk\", \(names) FROM \(quote(tableName)) WHERE \"_pk\" BETWEEN ? AND ?"
    }

    /// The triggers that kept the index in step before saves did it themselves; a file that
    /// still has them loses them when it is next migrated.
    var searchTriggerNames: [String] { ["__fts_insert", "__fts_delete", "__fts_update"].map { tableName + $0 } }
}

extension DatabaseValue {
    /// The value as an SQL literal, for DEFAULT clauses only (values in queries are bound).
    var sqlLiteral: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let value): "X'" + value.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}

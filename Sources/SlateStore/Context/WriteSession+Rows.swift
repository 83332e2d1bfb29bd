import Foundation

// Writing whole rows, for both backends: on PostgreSQL a searchable table's rows also carry
// their search document (`_search`, see `SearchDocument`), made here from the same values.
extension WriteSession {
    /// Inserts a row (`values` in `table.columns` order) stamped `stamp`.
    func insertRow(_ table: TableSchema, _ values: [DatabaseValue], stamp: DatabaseValue) throws {
        switch database.dialect {
        case .sqlite:
            try database.execute(table.insertSQL, values, last: stamp)
        case .postgreSQL:
            try database.execute(table.postgreSQLInsertSQL, values + [stamp] + searchArguments(table, values))
        }
    }

    /// Inserts a row under the hidden key it had before (undo of a delete).
    func insertRow(_ table: TableSchema, key: DatabaseValue, _ values: [DatabaseValue], stamp: DatabaseValue) throws {
        let search = database.dialect == .postgreSQL ? searchArguments(table, values) : []
        let names = (["_pk"] + table.columnNames + ["_rev"]).map(quote) + (search.isEmpty ? [] : ["\"_search\""])
        let marks = Array(repeating: "?", count: values.count + 2) + (search.isEmpty ? [] : ["CAST(? AS tsvector)"])
        try database.execute(
            "INSERT INTO \(quote(table.tableName)) (\(names.joined(separator: ", "))) VALUES (\(marks.joined(separator: ", ")))",
            [key] + values + [stamp] + search)
    }

    /// Updates the row whose id is `values[0]` to `values`, stamped `stamp`. With
    /// `returningImage`, on PostgreSQL, returns the row as stored afterwards (as `image`
    /// reads it), from the UPDATE's own answer; otherwise nil.
    @discardableResult
    func updateRow(_ table: TableSchema, _ values: [DatabaseValue], stamp: DatabaseValue, returningImage: Bool = false) throws -> Row? {
        let id = values[0]
        switch database.dialect {
        case .sqlite:
            try database.execute(table.updateSQL, Array(values.dropFirst()) + [stamp, id])
            return nil
        case .postgreSQL:
            let arguments = Array(values.dropFirst()) + [stamp] + searchArguments(table, values) + [id]
            guard returningImage else {
                try database.execute(table.postgreSQLUpdateSQL, arguments)
                return nil
            }
            return try database.rows(table.postgreSQLUpdateReturningImageSQL, arguments).first
        }
    }

    private func searchArguments(_ table: TableSchema, _ values: [DatabaseValue]) -> [DatabaseValue] {
        table.searchableColumns.isEmpty ? [] : [table.searchDocument(values)]
    }
}

import Foundation

/// A model's schema without its Swift type: what DDL, delete rules, change tracking
/// and undo need.
///
/// A class (immutable, so shared safely): a save looks its table up for every row it
/// writes, and a copy of a struct of this many stored properties retained and released
/// each of them.
final class TableSchema: Sendable {
    /// The columns the store adds to every model table: `_pk` (the row's key and insertion
    /// order) and `_rev` (its revision). An index may name them; a migration keeps them.
    static let hiddenColumnNames = ["_pk", "_rev"]

    struct ColumnInfo: Sendable {
        let name: String
        let type: ColumnType
        let isOptional: Bool
        let defaultValue: DatabaseValue?
        let reference: ColumnReference?
        let isSequence: Bool
    }

    /// The model type, named in error messages only (`modelName`).
    let model: any PersistentModel.Type
    let tableName: String
    let columns: [ColumnInfo]
    let indexes: [Index]
    let searchableColumns: [String]
    let countIndexes: [CountIndex]
    /// The partition column's name and its position in `columns`, if any.
    let partitionName: String?
    let partitionPosition: Int?
    /// The group column's position in `columns` (see `ModelSchema.groupColumn`), if any.
    let groupPosition: Int?
    /// Statements written once per model, so hot paths do not rebuild strings.
    let insertSQL: String
    let updateSQL: String
    let selectImageSQL: String
    /// The same writes on PostgreSQL, with the search document (`postgreSQLInsertSQL`…).
    let postgreSQLRows: PostgreSQLRowStatements
    /// Positions (in `columns`) of the columns the full-text index and the count indexes
    /// are made from, in `columns` order: a save keeps their values for each row it touches
    /// (`DerivedRow`) and brings both up to date at its end.
    let trackedPositions: [Int]
    /// Where each searchable column is among the tracked values, in `searchableColumns` order.
    let searchPositions: [Int]
    /// For each count index, where its columns are among the tracked values, in its order.
    let countPositions: [[Int]]
    /// `SELECT "_pk", "_rev", <tracked columns> FROM <table> WHERE "id" = ?`.
    let selectTrackedSQL: String
    /// Positions (in `columns`) of the columns the store numbers (kept: an insert asks for every row).
    let sequencePositions: [Int]

    init<Model: PersistentModel>(_ model: Model.Type) {
        let schema = Model.schema
        self.model = model
        tableName = schema.tableName
        columns = schema.columns.map {
            ColumnInfo(name: $0.name, type: $0.type, isOptional: $0.isOptional, defaultValue: $0.defaultValue,
                       reference: $0.reference, isSequence: $0.isSequence)
        }
        indexes = schema.indexes
        searchableColumns = schema.searchableColumns
        countIndexes = schema.countIndexes
        partitionName = schema.partitionColumn
        partitionPosition = schema.partitionColumn.flatMap { name in schema.columns.firstIndex { $0.name == name } }
        groupPosition = schema.groupColumn.flatMap { name in schema.columns.firstIndex { $0.name == name } }
        let table = quote(schema.tableName)
        let names = schema.columns.map { quote($0.name) }
        let marks = Array(repeating: "?", count: names.count + 1).joined(separator: ", ")
        let insertSQL = "INSERT INTO \(table) (\(names.joined(separator: ", ")), \"_rev\") VALUES (\(marks))"
        self.insertSQL = insertSQL
        let assignments = names.dropFirst().map { "\($0) = ?" } + ["\"_rev\" = ?"]
        let updateSQL = "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \"id\" = ?"
        self.updateSQL = updateSQL
        selectImageSQL = "SELECT \"_pk\", \(names.joined(separator: ", ")), \"_rev\" FROM \(table) WHERE \"id\" = ?"
        postgreSQLRows = PostgreSQLRowStatements(table: table, names: names, searchable: !schema.searchableColumns.isEmpty,
                                                 insertSQL: insertSQL, updateSQL: updateSQL)
        let counted = Set(schema.countIndexes.flatMap(\.columns))
        let tracked = schema.columns.indices.filter {
            schema.searchableColumns.contains(schema.columns[$0].name) || counted.contains(schema.columns[$0].name)
        }
        trackedPositions = tracked
        func positions(_ names: [String]) -> [Int] { names.compactMap { name in tracked.firstIndex { schema.columns[$0].name == name } } }
        searchPositions = positions(schema.searchableColumns)
        countPositions = schema.countIndexes.map { positions($0.columns) }
        selectTrackedSQL = "SELECT \"_pk\", \"_rev\"" + tracked.map { ", " + names[$0] }.joined() + " FROM \(table) WHERE \"id\" = ?"
        sequencePositions = schema.columns.indices.filter { schema.columns[$0].isSequence }
    }

    /// The model's type name, for error messages: `String(describing:)` of a type reflects
    /// on it, which took 14.6M instructions for the models of one store (about 40% of
    /// opening it) when it was done on every open.
    var modelName: String { String(describing: model) }

    var columnNames: [String] { columns.map(\.name) }
    var ftsTableName: String { tableName + "_fts" }

    /// Checks the declaration for mistakes that would otherwise surface as odd SQL errors.
    func validate() throws {
        var seen: Set<String> = []
        for column in columns {
            guard !column.name.isEmpty, !column.name.hasPrefix("_") else {
                throw StoreError.invalidSchema("\(modelName): column name '\(column.name)' is reserved or empty")
            }
            guard seen.insert(column.name).inserted else {
                throw StoreError.invalidSchema("\(modelName): column '\(column.name)' is declared twice")
            }
            if let reference = column.reference, reference.deleteRule == .nullify, !column.isOptional {
                throw StoreError.invalidSchema("\(modelName).\(column.name): .nullify needs an optional reference")
            }
        }
        if let name = partitionName, partitionPosition == nil {
            throw StoreError.invalidSchema("\(modelName): the partition column '\(name)' is not declared")
        }
        for name in searchableColumns {
            guard let column = columns.first(where: { $0.name == name }), column.type == .text else {
                throw StoreError.invalidSchema("\(modelName): searchable column '\(name)' is not a text column")
            }
        }
        for index in indexes {
            for column in index.columns where !seen.contains(column.name) && !Self.hiddenColumnNames.contains(column.name) {
                throw StoreError.invalidSchema("\(modelName): index \(index.name) names unknown column '\(column.name)'")
            }
        }
        var countNames: Set<String> = []
        for index in countIndexes {
            guard !index.columns.isEmpty, countNames.insert(index.name).inserted else {
                throw StoreError.invalidSchema("\(modelName): count index '\(index.name)' is declared twice or counts by no column")
            }
            for name in index.columns {
                guard let column = columns.first(where: { $0.name == name }), column.type != .blob else {
                    throw StoreError.invalidSchema("\(modelName): count index \(index.name) names '\(name)', which is not a column of text or numbers")
                }
            }
        }
    }
}


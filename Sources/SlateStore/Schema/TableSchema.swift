import Foundation

/// A model's schema without its Swift type: what DDL, delete rules, change tracking
/// and undo need.
struct TableSchema: Sendable {
    struct ColumnInfo: Sendable {
        let name: String
        let type: ColumnType
        let isOptional: Bool
        let defaultValue: DatabaseValue?
        let reference: ColumnReference?
        let isSequence: Bool
    }

    let modelName: String
    let tableName: String
    let columns: [ColumnInfo]
    let indexes: [Index]
    let searchableColumns: [String]
    /// The partition column's name and its position in `columns`, if any.
    let partitionName: String?
    let partitionPosition: Int?
    /// The group column's position in `columns` (see `ModelSchema.groupColumn`), if any.
    let groupPosition: Int?
    /// Statements written once per model, so hot paths do not rebuild strings.
    let insertSQL: String
    let updateSQL: String
    let selectImageSQL: String

    init<Model: PersistentModel>(_ model: Model.Type) {
        let schema = Model.schema
        modelName = String(describing: model)
        tableName = schema.tableName
        columns = schema.columns.map {
            ColumnInfo(name: $0.name, type: $0.type, isOptional: $0.isOptional, defaultValue: $0.defaultValue,
                       reference: $0.reference, isSequence: $0.isSequence)
        }
        indexes = schema.indexes
        searchableColumns = schema.searchableColumns
        partitionName = schema.partitionColumn
        partitionPosition = schema.partitionColumn.flatMap { name in schema.columns.firstIndex { $0.name == name } }
        groupPosition = schema.groupColumn.flatMap { name in schema.columns.firstIndex { $0.name == name } }
        let table = quote(schema.tableName)
        let names = schema.columns.map { quote($0.name) }
        let marks = Array(repeating: "?", count: names.count + 1).joined(separator: ", ")
        insertSQL = "INSERT INTO \(table) (\(names.joined(separator: ", ")), \"_rev\") VALUES (\(marks))"
        let assignments = names.dropFirst().map { "\($0) = ?" } + ["\"_rev\" = ?"]
        updateSQL = "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \"id\" = ?"
        selectImageSQL = "SELECT \"_pk\", \(names.joined(separator: ", ")), \"_rev\" FROM \(table) WHERE \"id\" = ?"
    }

    var columnNames: [String] { columns.map(\.name) }
    /// Positions (in `columns`) of the columns the store numbers.
    var sequencePositions: [Int] { columns.indices.filter { columns[$0].isSequence } }
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
            for column in index.columns where !seen.contains(column.name) {
                throw StoreError.invalidSchema("\(modelName): index \(index.name) names unknown column '\(column.name)'")
            }
        }
    }
}


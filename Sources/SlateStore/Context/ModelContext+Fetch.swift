import Foundation

extension ModelContext {
    /// The committed models matching `descriptor`, in its order.
    public func fetch<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Model] {
        // Builds the models directly rather than mapping `fetchRevisioned`: the wrappers
        // and the second array were a few percent of a large fetch.
        let query = try SelectQuery(descriptor)
        let (sql, arguments) = query.selectSQL(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        return try container.pool.readStatement { database in
            try Self.fetchRows(Model.self, sql: sql, arguments: arguments, in: database) { model, _ in model }
        }
    }

    /// Like `fetch`, with each row's revision (for ETags and `expectedRevision`).
    public func fetchRevisioned<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Revisioned<Model>] {
        let query = try SelectQuery(descriptor)
        let (sql, arguments) = query.selectSQL(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        return try container.pool.readStatement { try Self.fetchRows(Model.self, sql: sql, arguments: arguments, in: $0) }
    }

    /// The number of committed models matching `descriptor` (limit and offset ignored).
    public func fetchCount<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> Int {
        let query = try SelectQuery(descriptor)
        return try container.pool.readStatement { database in
            Int.fromDatabaseValue(try database.scalar(query.countSQL, query.arguments) ?? .integer(0)) ?? 0
        }
    }

    /// The number of matching models for each value of `keyPath` (a SQL GROUP BY).
    /// Values with no matching model are absent.
    public func fetchCounts<Model: PersistentModel, Value: DatabaseValueConvertible & Hashable>(
        _ descriptor: FetchDescriptor<Model>, groupedBy keyPath: KeyPath<Model, Value>
    ) throws -> [Value: Int] {
        let query = try SelectQuery(descriptor)
        guard let column = Model.schema.column(for: keyPath) else {
            throw StoreError.unknownKeyPath(model: String(describing: Model.self), keyPath: "\(keyPath)")
        }
        let group = "\(SelectQuery<Model>.alias).\(quote(column.name))"
        let sql = "SELECT \(group), count(*) FROM \(query.from)\(query.whereSQL) GROUP BY \(group)"
        return try container.pool.readStatement { database in
            var counts: [Value: Int] = [:]
            try database.forEachRow(sql, query.arguments) { statement in
                if let value = Value.fromDatabaseValue(statement.value(at: 0)) {
                    counts[value] = Int(statement.int64(at: 1))
                }
            }
            return counts
        }
    }

    /// Models whose id starts with `prefix` (hexadecimal digits and dashes, any case),
    /// at most `limit` of them: for short ids people type.
    public func models<Model: PersistentModel>(_ type: Model.Type, idPrefix prefix: String, limit: Int = 2) throws -> [Model] {
        let cleaned = prefix.uppercased()
        guard !cleaned.isEmpty, cleaned.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
        let sql = "SELECT \(Self.selectColumns(Model.self)) FROM \(quote(Model.schema.tableName)) AS t WHERE t.\"id\" >= ? AND t.\"id\" < ? ORDER BY t.\"id\" LIMIT ?"
        let upper = cleaned + "\u{FFFF}"
        return try container.pool.readStatement {
            try Self.fetchRows(Model.self, sql: sql, arguments: [.text(cleaned), .text(upper), .integer(Int64(limit))], in: $0)
        }.map(\.model)
    }

    /// The model with `id`, or nil.
    public func model<Model: PersistentModel>(_ type: Model.Type, id: UUID) throws -> Model? {
        try revisioned(type, id: id)?.model
    }

    /// The model with `id` and its revision, or nil.
    public func revisioned<Model: PersistentModel>(_ type: Model.Type, id: UUID) throws -> Revisioned<Model>? {
        let sql = "SELECT \(Self.selectColumns(Model.self)) FROM \(quote(Model.schema.tableName)) AS t WHERE t.\"id\" = ?"
        return try container.pool.readStatement { try Self.fetchRows(Model.self, sql: sql, arguments: [id.databaseValue], in: $0) }.first
    }

    /// Rows of `Model` changed after `revision`: current values of inserted and updated
    /// rows, and ids of deleted ones. Pass the returned `revision` next time.
    ///
    /// With `partition`, only rows whose partition column (see `ModelSchema`) holds that
    /// value, and only their tombstones.
    public func changes<Model: PersistentModel>(
        of type: Model.Type, since revision: Int, partition: (any DatabaseValueConvertible)? = nil
    ) throws -> ChangeSet<Model> {
        let table = Model.schema.tableName
        var filter = ""
        var arguments: [DatabaseValue] = [.integer(Int64(revision))]
        if let partition {
            guard let column = Model.schema.partitionColumn else {
                throw StoreError.invalidSchema("\(Model.self) declares no partition column")
            }
            filter = " AND t.\(quote(column)) = ?"
            arguments.append(partition.databaseValue)
        }
        let sql = "SELECT \(Self.selectColumns(Model.self)) FROM \(quote(table)) AS t WHERE t.\"_rev\" > ?\(filter) ORDER BY t.\"_rev\", t.\"_pk\""
        return try container.pool.read { database in
            let upserted = try Self.fetchRows(Model.self, sql: sql, arguments: arguments, in: database)
            let deleted = try ChangeLog.deletedIDs(table: table, since: revision, partition: partition?.databaseValue, in: database)
            return ChangeSet(upserted: upserted.map(\.model), deleted: deleted,
                             revision: try ChangeLog.currentRevision(database))
        }
    }

    static func selectColumns<Model: PersistentModel>(_ type: Model.Type) -> String {
        Model.schema.selectList
    }

    /// Runs a SELECT whose columns are the model's columns then `_rev`, decoding each row.
    static func fetchRows<Model: PersistentModel>(
        _ type: Model.Type, sql: String, arguments: [DatabaseValue], in database: Database
    ) throws -> [Revisioned<Model>] {
        try fetchRows(type, sql: sql, arguments: arguments, in: database) { Revisioned(model: $0, revision: $1) }
    }

    /// Runs a SELECT whose columns are the model's columns then `_rev`, making one
    /// element of each decoded model and its revision.
    static func fetchRows<Model: PersistentModel, Element>(
        _ type: Model.Type, sql: String, arguments: [DatabaseValue], in database: Database,
        _ element: (Model, Int) -> Element
    ) throws -> [Element] {
        var results: [Element] = []
        if let readable = Model.self as? any RowReadable.Type {
            // The SELECT lists the schema's columns in order, then `_rev`.
            try database.forEachRow(sql, arguments) { statement in
                let model = try read(readable, from: StoredRow(statement: statement, model: Model.self)) as! Model
                results.append(element(model, Int(statement.int64(at: statement.columnCount - 1))))
            }
            return results
        }
        var columns: ColumnLayout?
        try database.forEachRow(sql, arguments) { statement in
            let layout = columns ?? ColumnLayout(statement)
            columns = layout
            let model = try RowDecoder.decode(Model.self, from: statement, columns: layout)
            let revision = Int(statement.int64(at: statement.columnCount - 1))
            results.append(element(model, revision))
        }
        return results
    }

    private static func read<Model: RowReadable>(_ type: Model.Type, from row: StoredRow) throws -> Model {
        try Model(row: row)
    }
}

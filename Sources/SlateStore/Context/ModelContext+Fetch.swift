import Foundation

extension ModelContext {
    /// The committed models matching `descriptor`, in its order.
    public func fetch<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Model] {
        // Builds the models directly rather than mapping `fetchRevisioned`: the wrappers
        // and the second array were a few percent of a large fetch.
        let query = try SelectQuery(descriptor)
        let (sql, arguments) = query.selectSQL(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        return try container.pool.read { database in
            try Self.fetchRows(Model.self, sql: sql, arguments: arguments, in: database) { model, _ in model }
        }
    }

    /// Like `fetch`, with each row's revision (for ETags and `expectedRevision`).
    public func fetchRevisioned<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Revisioned<Model>] {
        let query = try SelectQuery(descriptor)
        let (sql, arguments) = query.selectSQL(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        return try container.pool.read { try Self.fetchRows(Model.self, sql: sql, arguments: arguments, in: $0) }
    }

    /// The number of committed models matching `descriptor` (limit and offset ignored).
    public func fetchCount<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> Int {
        let query = try SelectQuery(descriptor)
        return try container.pool.read { database in
            Int.fromDatabaseValue(try database.scalar(query.countSQL, query.arguments) ?? .integer(0)) ?? 0
        }
    }

    /// The model with `id`, or nil.
    public func model<Model: PersistentModel>(_ type: Model.Type, id: UUID) throws -> Model? {
        try revisioned(type, id: id)?.model
    }

    /// The model with `id` and its revision, or nil.
    public func revisioned<Model: PersistentModel>(_ type: Model.Type, id: UUID) throws -> Revisioned<Model>? {
        let sql = "SELECT \(Self.selectColumns(Model.self)) FROM \(quote(Model.schema.tableName)) AS t WHERE t.\"id\" = ?"
        return try container.pool.read { try Self.fetchRows(Model.self, sql: sql, arguments: [id.databaseValue], in: $0) }.first
    }

    /// Rows of `Model` changed after `revision`: current values of inserted and updated
    /// rows, and ids of deleted ones. Pass the returned `revision` next time.
    public func changes<Model: PersistentModel>(of type: Model.Type, since revision: Int) throws -> ChangeSet<Model> {
        let table = Model.schema.tableName
        let sql = "SELECT \(Self.selectColumns(Model.self)) FROM \(quote(table)) AS t WHERE t.\"_rev\" > ? ORDER BY t.\"_rev\", t.\"_pk\""
        return try container.pool.read { database in
            let upserted = try Self.fetchRows(Model.self, sql: sql, arguments: [.integer(Int64(revision))], in: database)
            let deleted = try ChangeLog.deletedIDs(table: table, since: revision, in: database)
            return ChangeSet(upserted: upserted.map(\.model), deleted: deleted,
                             revision: try ChangeLog.currentRevision(database))
        }
    }

    static func selectColumns<Model: PersistentModel>(_ type: Model.Type) -> String {
        (Model.schema.columns.map { "t." + quote($0.name) } + ["t.\"_rev\""]).joined(separator: ", ")
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
}

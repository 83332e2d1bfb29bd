import Foundation

extension ModelContext {
    /// The committed models matching `descriptor`, in its order.
    public func fetch<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Model] {
        // Builds the models directly rather than mapping `fetchRevisioned`: the wrappers
        // and the second array were a few percent of a large fetch.
        let query = try SelectQuery(descriptor, dialect: container.dialect)
        let (sql, arguments) = query.selectSQL(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        return try container.pool.readStatement { database in
            try Self.fetchRows(Model.self, sql: sql, arguments: arguments, in: database) { model, _ in model }
        }
    }

    /// Like `fetch`, with each row's revision (for ETags and `expectedRevision`).
    public func fetchRevisioned<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Revisioned<Model>] {
        let query = try SelectQuery(descriptor, dialect: container.dialect)
        let (sql, arguments) = query.selectSQL(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        return try container.pool.readStatement { try Self.fetchRows(Model.self, sql: sql, arguments: arguments, in: $0) }
    }

    /// The ids and revisions of the committed models matching `descriptor`, in its order
    /// (its limit and offset applied): what a caller that keeps models by revision needs to
    /// tell which of them it must read again.
    public func fetchRevisions<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [(id: UUID, revision: Int)] {
        let query = try SelectQuery(descriptor, dialect: container.dialect)
        let (sql, arguments) = query.identitySQL(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset)
        return try container.pool.readStatement { database in
            var results: [(id: UUID, revision: Int)] = []
            try database.forEachRow(sql, arguments) { statement in
                guard let id = statement.uuid(at: 0) else { return }
                results.append((id, Int(statement.int64(at: 1))))
            }
            return results
        }
    }

    /// The number of committed models matching `descriptor` (order, limit and offset ignored).
    ///
    /// When the model declares a `CountIndex` on exactly the columns the descriptor fixes
    /// with `==`, the count is read from it on SQLite: one lookup, however many rows match.
    /// PostgreSQL counts the rows with SQL, as it did before count indexes: they are not
    /// kept there (one count row per key would also make every writer of an account, on
    /// every node, wait on the same row).
    public func fetchCount<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> Int {
        let query = try SelectQuery(descriptor, dialect: container.dialect, ordered: false)
        if container.dialect == .sqlite, let fixed = query.equalities, !fixed.isEmpty, let table = container.tables.table(for: Model.self),
           let index = table.countIndex(on: fixed.keys) {
            let arguments = [DatabaseValue.text(table.storedName(of: index))] + index.columns.map { fixed[$0] ?? .null }
            return try container.pool.readStatement { database in
                Int.fromDatabaseValue(try database.scalar(table.countReadSQL(index), arguments) ?? .integer(0)) ?? 0
            }
        }
        return try container.pool.readStatement { database in
            Int.fromDatabaseValue(try database.scalar(query.countSQL, query.arguments) ?? .integer(0)) ?? 0
        }
    }

    /// The largest value at `keyPath` among the committed models matching `descriptor`
    /// (its order, limit and offset ignored); nil when none matches or every value is nil.
    /// One SQL `max()`, which an index ending with the column answers with one lookup,
    /// where fetching the first model in descending order read and decoded a whole row.
    /// For numbers, text and dates (a Bool column has no maximum on PostgreSQL).
    public func maximum<Model: PersistentModel, Value: DatabaseValueConvertible>(
        _ keyPath: KeyPath<Model, Value>, _ descriptor: FetchDescriptor<Model>
    ) throws -> Value? {
        let query = try SelectQuery(descriptor, dialect: container.dialect, ordered: false)
        let column = try Model.schema.requiredColumn(for: keyPath)
        let sql = "SELECT max(\(SelectQuery<Model>.alias).\(quote(column.name))) FROM \(query.from)\(query.whereSQL)"
        return try container.pool.readStatement { database in
            guard let value = try database.scalar(sql, query.arguments), !value.isNull else { return nil }
            return Value.fromDatabaseValue(value)
        }
    }

    /// The number of matching models for each value of `keyPath` (a SQL GROUP BY).
    /// Values with no matching model are absent.
    public func fetchCounts<Model: PersistentModel, Value: DatabaseValueConvertible & Hashable>(
        _ descriptor: FetchDescriptor<Model>, groupedBy keyPath: KeyPath<Model, Value>
    ) throws -> [Value: Int] {
        let query = try SelectQuery(descriptor, dialect: container.dialect)
        let column = try Model.schema.requiredColumn(for: keyPath)
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

    /// For each of `values` that rows of `partition` hold in the column at `keyPath`: how
    /// many such rows there are, and how many of them have the Bool column at `flag` false.
    /// One grouped, indexed query written directly (no predicate to translate): for counts
    /// of children by parent, which every page of a tree asks for.
    public func countChildren<Model: PersistentModel>(
        _ type: Model.Type, by keyPath: KeyPath<Model, UUID?>, among values: [UUID],
        partition: some DatabaseValueConvertible, unset flag: KeyPath<Model, Bool>
    ) throws -> [UUID: (total: Int, unset: Int)] {
        guard !values.isEmpty else { return [:] }
        let sql = try Self.countChildrenSQL(type, by: keyPath, count: values.count, unset: flag, dialect: container.dialect)
        let arguments = [partition.databaseValue] + values.map(\.databaseValue)
        return try container.pool.readStatement { database in
            var counts: [UUID: (total: Int, unset: Int)] = [:]
            try database.forEachRow(sql, arguments) { statement in
                guard let value = statement.uuid(at: 0) else { return }
                counts[value] = (Int(statement.int64(at: 1)), Int(statement.int64(at: 2)))
            }
            return counts
        }
    }

    /// Models whose id starts with `prefix` (hexadecimal digits and dashes, any case),
    /// at most `limit` of them, in id order: for short ids people type. With `partition`,
    /// only that partition's rows (an account's), chosen by the query itself: filtered
    /// afterwards, the first `limit` rows of every partition could hide the one asked for.
    public func models<Model: PersistentModel>(_ type: Model.Type, idPrefix prefix: String, partition: UUID? = nil, limit: Int = 2) throws -> [Model] {
        let cleaned = prefix.uppercased()
        guard !cleaned.isEmpty, cleaned.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
        var sql = "SELECT \(Self.selectColumns(Model.self)) FROM \(quote(Model.schema.tableName)) AS t WHERE t.\"id\" >= ? AND t.\"id\" < ?"
        var arguments: [DatabaseValue] = [.text(cleaned), .text(cleaned + "\u{FFFF}")]
        if let partition {
            guard let column = Model.schema.partitionColumn else {
                throw StoreError.invalidSchema("\(Model.self) has no partition column to look ids up in")
            }
            sql += " AND t.\(quote(column)) = ?"
            arguments.append(partition.databaseValue)
        }
        sql += " ORDER BY t.\"id\" LIMIT ?"
        arguments.append(.integer(Int64(limit)))
        return try container.pool.readStatement { try Self.fetchRows(Model.self, sql: sql, arguments: arguments, in: $0) }.map(\.model)
    }

    /// The model with `id`, or nil.
    public func model<Model: PersistentModel>(_ type: Model.Type, id: UUID) throws -> Model? {
        try revisioned(type, id: id)?.model
    }

    /// The models with `ids` that exist, with their revisions, in no particular order: one
    /// query on the unique index of ids, written directly (no predicate to translate), its
    /// text kept for the next call with as many ids (`StatementTexts`).
    public func revisioned<Model: PersistentModel>(_ type: Model.Type, ids: [UUID]) throws -> [Revisioned<Model>] {
        guard !ids.isEmpty else { return [] }
        let key = StatementTexts.Key(Model.self, container.dialect, "revisionedByID", columns: [], count: ids.count)
        let sql = StatementTexts.shared.text(for: key) {
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return "SELECT \(Self.selectColumns(Model.self)) FROM \(quote(Model.schema.tableName)) AS t WHERE t.\"id\" IN (\(marks))"
        }
        return try container.pool.readStatement { try Self.fetchRows(Model.self, sql: sql, arguments: ids.map(\.databaseValue), in: $0) }
    }

    /// The value at `keyPath` of each model with one of `ids` in `partition` (the rows whose
    /// partition column holds it; see `ModelSchema`), by id. Only the id and that column are
    /// read: for a listing that needs one field of thousands of rows (a resource name per
    /// task), where decoding whole models was most of the work.
    ///
    /// When `ids` are a third or more of the partition's rows, the partition is read whole
    /// through its index (about a third of the cost of a lookup by id per row); otherwise
    /// the rows are looked up by id, a few hundred to a statement.
    public func values<Model: PersistentModel, Value: DatabaseValueConvertible>(
        _ keyPath: KeyPath<Model, Value>, ids: [UUID], partition: some DatabaseValueConvertible
    ) throws -> [UUID: Value] {
        var values: [UUID: Value] = [:]
        values.reserveCapacity(ids.count)
        try forEachValue(keyPath, ids: ids, partition: partition.databaseValue) { id, value, _ in
            if let value = Value.fromDatabaseValue(value) { values[id] = value }
        }
        return values
    }

    /// `values(_:ids:partition:)` of a text column (a resource name per task), with every
    /// row's work specialised: through the generic form, a listing of 10,000 names spent
    /// most of its time in the dictionary of an unknown value type.
    public func values<Model: PersistentModel>(
        _ keyPath: KeyPath<Model, String>, ids: [UUID], partition: some DatabaseValueConvertible
    ) throws -> [UUID: String] {
        var values: [UUID: String] = [:]
        values.reserveCapacity(ids.count)
        try forEachValue(keyPath, ids: ids, partition: partition.databaseValue) { id, value, _ in
            if let value = String.fromDatabaseValue(value) { values[id] = value }
        }
        return values
    }

    /// `values(_:ids:partition:)` with each row's revision: what a caller that keeps
    /// answers by revision needs of rows it would otherwise read whole (a multiget's tasks:
    /// their list and revision).
    public func revisionedValues<Model: PersistentModel, Value: DatabaseValueConvertible>(
        _ keyPath: KeyPath<Model, Value>, ids: [UUID], partition: some DatabaseValueConvertible
    ) throws -> [UUID: (value: Value, revision: Int)] {
        var values: [UUID: (value: Value, revision: Int)] = [:]
        values.reserveCapacity(ids.count)
        try forEachValue(keyPath, ids: ids, partition: partition.databaseValue) { id, value, revision in
            if let value = Value.fromDatabaseValue(value) { values[id] = (value, revision) }
        }
        return values
    }

    /// `revisionedValues(_:ids:partition:)` of an optional id column (a task's list), with
    /// every row's work specialised: through the generic form each row looked up the
    /// optional's type at run time (about 3,000 instructions a row of a CalDAV multiget).
    public func revisionedValues<Model: PersistentModel>(
        _ keyPath: KeyPath<Model, UUID?>, ids: [UUID], partition: some DatabaseValueConvertible
    ) throws -> [UUID: (value: UUID?, revision: Int)] {
        var values: [UUID: (value: UUID?, revision: Int)] = [:]
        values.reserveCapacity(ids.count)
        try forEachValue(keyPath, ids: ids, partition: partition.databaseValue) { id, value, revision in
            if let value = UUID?.fromDatabaseValue(value) { values[id] = (value, revision) }
        }
        return values
    }

    /// The id and the text at `keyPath` of each committed model matching `descriptor`, in
    /// its order (limit and offset ignored): one column of the rows a predicate finds,
    /// without decoding whole models (a multiget's resource names).
    public func values<Model: PersistentModel>(
        _ keyPath: KeyPath<Model, String>, matching descriptor: FetchDescriptor<Model>
    ) throws -> [(id: UUID, value: String)] {
        let column = try Model.schema.requiredColumn(for: keyPath)
        let (sql, arguments) = try SelectQuery(descriptor, dialect: container.dialect).valuesSQL(column: column.name)
        return try container.pool.readStatement { database in
            var values: [(id: UUID, value: String)] = []
            try database.forEachRow(sql, arguments) { statement in
                guard let id = statement.uuid(at: 0), let value = String.fromDatabaseValue(statement.value(at: 1)) else { return }
                values.append((id, value))
            }
            return values
        }
    }

    /// At most this many ids are looked up one by one without counting the partition
    /// first (see `values(_:ids:partition:)`): a few hundred lookups cost less than the count.
    static let lookupsWithoutCount = 256

    /// Calls `body` with the id, the value at `keyPath` and the revision of each row with
    /// one of `ids` in `wanted` (see `values(_:ids:partition:)`).
    private func forEachValue<Model: PersistentModel>(
        _ keyPath: PartialKeyPath<Model>, ids: [UUID], partition wanted: DatabaseValue, _ body: (UUID, DatabaseValue, Int) -> Void
    ) throws {
        guard !ids.isEmpty else { return }
        let column = try Model.schema.requiredColumn(for: keyPath)
        guard let partitionColumn = Model.schema.partitionColumn else {
            throw StoreError.invalidSchema("\(Model.self) declares no partition column")
        }
        let table = quote(Model.schema.tableName), selected = quote(column.name), partitioned = quote(partitionColumn)
        try container.pool.readStatement { database in
            let total = ids.count <= Self.lookupsWithoutCount ? Int.max : Int.fromDatabaseValue(
                try database.scalar("SELECT count(*) FROM \(table) AS t WHERE t.\(partitioned) = ?", [wanted]) ?? .integer(0)) ?? 0
            if ids.count * 3 >= total {
                let among = Set(ids)
                try database.forEachRow("SELECT t.\"id\", t.\(selected), t.\"_rev\" FROM \(table) AS t WHERE t.\(partitioned) = ?", [wanted]) { statement in
                    guard let id = statement.uuid(at: 0), among.contains(id) else { return }
                    body(id, statement.value(at: 1), Int(statement.int64(at: 2)))
                }
                return
            }
            let batch = 500
            for start in stride(from: 0, to: ids.count, by: batch) {
                let chunk = ids[start..<min(start + batch, ids.count)]
                let key = StatementTexts.Key(Model.self, container.dialect, "valuesByID", columns: [column.name], count: chunk.count)
                let sql = StatementTexts.shared.text(for: key) {
                    // The partition is compared here, not in SQL: with both conditions and no
                    // statistics, SQLite may walk the partition's index once per statement.
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    return "SELECT t.\"id\", t.\(selected), t.\(partitioned), t.\"_rev\" FROM \(table) AS t WHERE t.\"id\" IN (\(marks))"
                }
                try database.forEachRow(sql, chunk.map(\.databaseValue)) { statement in
                    guard statement.value(at: 2) == wanted, let id = statement.uuid(at: 0) else { return }
                    body(id, statement.value(at: 1), Int(statement.int64(at: 3)))
                }
            }
        }
    }

    /// The revision of the model with `id` (its row's last change), or nil when there is none.
    public func revision<Model: PersistentModel>(of type: Model.Type, id: UUID) throws -> Int? {
        let read = ExpectedRead.revision(of: type, id: id)  // the same text a snapshot may expect
        return try container.pool.readStatement { try $0.scalar(read.sql, read.arguments) }.flatMap(Int.fromDatabaseValue)
    }

    /// The text of `countChildren` for `count` values (`ExpectedRead.childCounts` too).
    static func countChildrenSQL<Model: PersistentModel>(
        _ type: Model.Type, by keyPath: KeyPath<Model, UUID?>, count: Int, unset flag: KeyPath<Model, Bool>, dialect: SQLDialect
    ) throws -> String {
        guard let group = Model.schema.column(for: keyPath), let flagColumn = Model.schema.column(for: flag),
              let partitionColumn = Model.schema.partitionColumn
        else {
            throw StoreError.unknownKeyPath(model: String(describing: Model.self), keyPath: "\(keyPath)")
        }
        let key = StatementTexts.Key(Model.self, dialect, "countChildren", columns: [group.name, flagColumn.name], count: count)
        return StatementTexts.shared.text(for: key) {
            let alias = SelectQuery<Model>.alias
            let grouped = "\(alias).\(quote(group.name))"
            let marks = Array(repeating: "?", count: count).joined(separator: ", ")
            let flagged = "\(alias).\(quote(flagColumn.name))"
            // PostgreSQL sums no booleans; its Bool columns are integers too.
            let unsetCount = dialect == .sqlite ? "sum(\(flagged) = 0)" : "sum(CASE WHEN \(flagged) = 0 THEN 1 ELSE 0 END)"
            return "SELECT \(grouped), count(*), \(unsetCount) FROM \(quote(Model.schema.tableName)) AS \(alias) "
                + "WHERE \(alias).\(quote(partitionColumn)) = ? AND \(grouped) IN (\(marks)) GROUP BY \(grouped)"
        }
    }

    /// The text of `revisioned(_:id:)` (`ExpectedRead.revisioned` too), made once per model.
    static func revisionedByIDSQL<Model: PersistentModel>(_ type: Model.Type) -> String {
        StatementTexts.shared.text(for: StatementTexts.Key(Model.self, .sqlite, "revisionedByOneID", columns: [], count: 1)) {
            "SELECT \(Self.selectColumns(Model.self)) FROM \(quote(Model.schema.tableName)) AS t WHERE t.\"id\" = ?"
        }
    }

    /// The model with `id` and its revision, or nil.
    public func revisioned<Model: PersistentModel>(_ type: Model.Type, id: UUID) throws -> Revisioned<Model>? {
        let sql = Self.revisionedByIDSQL(Model.self)
        return try container.pool.readStatement { try Self.fetchRows(Model.self, sql: sql, arguments: [id.databaseValue], in: $0) }.first
    }

    /// Rows of `Model` changed after `revision`: current values of inserted and updated
    /// rows, and ids of deleted ones. Pass the returned `revision` next time.
    ///
    /// With `partition`, only rows whose partition column (see `ModelSchema`) holds that
    /// value, and only their tombstones; `revision` is then the partition's
    /// (`Commit.revision(in:)`). Without it, `revision` is a store sequence
    /// (`Commit.revision`) and the rows of every partition are read; a sequence older than
    /// the commit log reaches reads every row again.
    public func changes<Model: PersistentModel>(
        of type: Model.Type, since revision: Int, partition: (any DatabaseValueConvertible)? = nil
    ) throws -> ChangeSet<Model> {
        let table = Model.schema.tableName
        let select = "SELECT \(Self.selectColumns(Model.self)) FROM \(quote(table)) AS t"
        guard let partition else {
            return try container.pool.read { database in
                try Self.changesOfEveryPartition(Model.self, since: revision, select: select, in: database)
            }
        }
        guard let column = Model.schema.partitionColumn else {
            throw StoreError.invalidSchema("\(Model.self) declares no partition column")
        }
        let sql = "\(select) WHERE t.\"_rev\" > ? AND t.\(quote(column)) = ? ORDER BY t.\"_rev\", t.\"_pk\""
        let arguments: [DatabaseValue] = [.integer(Int64(revision)), partition.databaseValue]
        return try container.pool.read { database in
            let upserted = try Self.fetchRows(Model.self, sql: sql, arguments: arguments, in: database)
            let deleted = try ChangeLog.deletedIDs(table: table, since: revision, partition: partition.databaseValue, in: database)
            return ChangeSet(upserted: upserted.map(\.model), deleted: deleted,
                             revision: try ChangeLog.currentRevision(partition: UndoLog.scope(partition), in: database))
        }
    }

    /// The rows of `partition` that left a group (see `ModelSchema.groupColumn`: moved to
    /// another, or deleted) after the partition's `revision` and up to `through`, oldest
    /// first. A row that moved twice appears twice; its first entry names the group it was
    /// in at `revision`.
    public func departures<Model: PersistentModel>(
        of type: Model.Type, since revision: Int, through: Int? = nil, partition: any DatabaseValueConvertible
    ) throws -> [Departure] {
        try container.pool.read { database in
            try ChangeLog.departures(table: Model.schema.tableName, since: revision, through: through,
                                     partition: partition.databaseValue, in: database)
        }
    }

    /// Rows of `Model` changed after store sequence `since`, whatever their partition: rows
    /// of no partition by their revision (the sequence), the others through the commit log.
    private static func changesOfEveryPartition<Model: PersistentModel>(
        _ type: Model.Type, since: Int, select: String, in database: Database
    ) throws -> ChangeSet<Model> {
        let table = Model.schema.tableName
        let sequence = try ChangeLog.currentRevision(database)
        guard let column = Model.schema.partitionColumn else {
            let upserted = try fetchRows(Model.self, sql: "\(select) WHERE t.\"_rev\" > ? ORDER BY t.\"_rev\", t.\"_pk\"",
                                         arguments: [.integer(Int64(since))], in: database)
            return ChangeSet(upserted: upserted.map(\.model), deleted: try ChangeLog.deletedIDs(table: table, since: since, in: database),
                             revision: sequence)
        }
        guard since > 0, since >= (try ChangeLog.commitLogFloor(database)) else {
            // Everything: no history to go by (a first read, or one from before the log's start).
            let upserted = try fetchRows(Model.self, sql: "\(select) ORDER BY t.\"_pk\"", arguments: [], in: database)
            let deleted = try database.rows("SELECT id FROM _slate_tombstones WHERE table_name = ? ORDER BY id", [.text(table)])
                .compactMap { UUID.fromDatabaseValue($0["id"]) }
            return ChangeSet(upserted: upserted.map(\.model), deleted: deleted, revision: sequence)
        }
        let since: DatabaseValue = .integer(Int64(since))
        var upserted = try fetchRows(
            Model.self, sql: "\(select) WHERE t.\(quote(column)) IS NULL AND t.\"_rev\" > ? ORDER BY t.\"_rev\", t.\"_pk\"",
            arguments: [since], in: database)
        let dialect = database.dialect
        let rows = dialect.commitsJoin(quote(table), as: "t", partition: quote(column), revision: "\"_rev\"")
        upserted += try fetchRows(
            Model.self, sql: "SELECT \(selectColumns(Model.self)) FROM \(rows) WHERE c.seq > ? ORDER BY c.seq, t.\"_pk\"",
            arguments: [since], in: database)
        let tombstones = dialect.commitsJoin("_slate_tombstones", as: "d", partition: "partition", revision: "revision", filter: "d.table_name = ?")
        let deleted = try database.rows(
            """
            SELECT d.id FROM _slate_tombstones AS d WHERE d.table_name = ? AND d.partition IS NULL AND d.revision > ?
            UNION ALL
            SELECT d.id FROM \(tombstones) WHERE c.seq > ?
            """, [.text(table), since, .text(table), since]).compactMap { UUID.fromDatabaseValue($0["id"]) }
        return ChangeSet(upserted: upserted.map(\.model), deleted: deleted, revision: sequence)
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
        if let reader = Model.rowReader {
            // The SELECT lists the schema's columns in order, then `_rev`.
            try database.forEachRow(sql, arguments) { statement in
                let model = try reader(StoredRow(statement: statement, model: Model.self))
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

}

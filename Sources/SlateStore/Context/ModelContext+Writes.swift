import Foundation

extension ModelContext {
    /// The table of `Model`, built now if it was not (so that saving finds it by name
    /// without building every other table: `TableCatalog`).
    private func tableName<Model: PersistentModel>(_ model: Model.Type) -> String {
        container.tables.tableName(for: model) ?? Model.schema.tableName
    }

    /// Stages a new model. Saving fails with `.constraintViolation` if its id exists.
    public func insert<Model: PersistentModel>(_ model: Model) {
        pending.append(.insert(table: tableName(Model.self), row: StagedRow(model), check: check(model)))
    }

    /// Stages a change to an existing model.
    ///
    /// With `expectedRevision`, saving fails with `.conflict` when the row changed since
    /// that revision was read, so two editors never silently overwrite each other.
    public func update<Model: PersistentModel>(_ model: Model, expectedRevision: Int? = nil) {
        pending.append(.update(table: tableName(Model.self), values: encode(model),
                               expectedRevision: expectedRevision, check: check(model)))
    }

    /// Stages an insert, or an update when a row with the model's id exists.
    public func upsert<Model: PersistentModel>(_ model: Model) {
        pending.append(.upsert(table: tableName(Model.self), values: encode(model), check: check(model)))
    }

    /// Stages the deletion of a model and, by their delete rules, of what refers to it.
    public func delete<Model: PersistentModel>(_ model: Model, expectedRevision: Int? = nil) {
        delete(Model.self, id: model.id, expectedRevision: expectedRevision)
    }

    /// Stages the deletion of the model with `id`.
    public func delete<Model: PersistentModel>(_ model: Model.Type, id: UUID, expectedRevision: Int? = nil) {
        pending.append(.delete(table: tableName(Model.self), id: id, expectedRevision: expectedRevision))
    }

    /// Stages the deletion of every model matching `predicate` (all when nil), resolved
    /// when saving, in the same transaction.
    public func delete<Model: PersistentModel>(model: Model.Type, where predicate: Predicate<Model>? = nil) throws {
        let query = try SelectQuery(FetchDescriptor(predicate: predicate), dialect: container.dialect)
        let sql = "SELECT \(SelectQuery<Model>.alias).\"id\" FROM \(query.from)\(query.whereSQL)"
        let arguments = query.arguments
        pending.append(.deleteMatching(table: tableName(Model.self)) { database in
            try database.rows(sql, arguments).compactMap { UUID.fromDatabaseValue($0["id"]) }
        })
    }

    /// Writes every staged change in one transaction and returns the commit, or nil when
    /// nothing was staged. On any error nothing is written and the changes stay staged.
    ///
    /// - Parameter undoLabel: what the user did, shown when offering to undo it.
    @discardableResult
    public func save(undoLabel: String? = nil) throws -> Commit? {
        guard !pending.isEmpty else { return nil }
        let changes = pending
        let recordsImages = isUndoEnabled
        let recordsInsertsByID = self.recordsInsertsByID
        let limit = container.configuration.undoLimit
        let tables = container.tables
        let notifier = container.notifier
        let departureHistory = container.configuration.departureHistory
        let commit = try container.pool.write { database in
            try notifier.transaction(in: database, announcing: { (commit: Commit) in commit }) { nextRevision in
                // The save reads the row it changes first right after taking the store
                // sequence: on PostgreSQL in that statement's round trip.
                if let first = changes.first.flatMap(imageRead) { (database as? PostgreSQLDatabase)?.expectInWrite([first]) }
                // So is the revision of its first row's partition, on PostgreSQL in the same statement.
                let partition = changes.first.flatMap(partition(of:))
                let taken = try nextRevision(partition)
                let session = WriteSession(
                    database: database, tables: tables, revision: taken.sequence,
                    recordsImages: recordsImages, recordsInsertsByID: recordsInsertsByID)
                if let partition, let revision = taken.partitionRevision { session.takenWithSequence = (partition, revision) }
                session.departureHistory = departureHistory
                for change in changes { try apply(change, in: session) }
                try session.applyDerivedChanges()
                if recordsImages {
                    let scope = UndoLog.partition(of: session.partitions)
                    // The entry is found again by the revision its history knows the commit by.
                    let revision = scope.flatMap { session.revisions[$0] } ?? session.revision
                    let tables = session.created.filter { !$0.value.isEmpty }
                    let entry = UndoLog.Entry(
                        label: undoLabel, images: session.images,
                        created: tables.isEmpty ? nil : tables.mapValues { $0.joined(separator: ",") },
                        createdDigests: tables.isEmpty ? nil : Dictionary(uniqueKeysWithValues: tables.keys.map { ($0, session.createdDigestText(table: $0)) }),
                        createdRevision: tables.isEmpty ? nil : revision)
                    try UndoLog.push(entry, onto: .undo, partition: scope,
                                     revision: revision, limit: limit, in: database)
                    try UndoLog.clear(.redo, partition: scope, in: database)
                }
                (database as? PostgreSQLDatabase)?.expectAfterSavepoint(readsAfterSave)
                return session.commit(origin: .save)
            }
        }
        pending.removeAll()
        checksStaged.removeAll()
        container.notifier.publish(commit)
        return commit
    }

    private func apply(_ change: PendingChange, in session: WriteSession) throws {
        switch change {
        case .insert(let table, let row, let check):
            try session.insert(try schema(table), row.values)
            try check?.run(session.database)
        case .update(let table, let values, let expectedRevision, let check):
            try session.update(try schema(table), values, expectedRevision: expectedRevision)
            try check?.run(session.database)
        case .upsert(let table, let values, let check):
            try session.upsert(try schema(table), values)
            try check?.run(session.database)
        case .delete(let table, let id, let expectedRevision):
            try session.delete(try schema(table), id: id.databaseValue, expectedRevision: expectedRevision)
        case .deleteMatching(let table, let resolve):
            let tableSchema = try schema(table)
            for id in try resolve(session.database) {
                // A row may already be gone, deleted by a cascade from an earlier match.
                if try session.image(tableSchema, id.databaseValue) != nil {
                    try session.delete(tableSchema, id: id.databaseValue, expectedRevision: nil)
                }
            }
        }
    }

    /// The read of a stored row `change` begins with (`WriteSession.image`), if it has one.
    private func imageRead(_ change: PendingChange) -> ExpectedRead? {
        switch change {
        case .update(let table, let values, _, _), .upsert(let table, let values, _):
            guard let schema = container.tables[table], let id = values.first else { return nil }
            return ExpectedRead(sql: schema.selectImageSQL, arguments: [id])
        default:
            return nil
        }
    }

    /// The partition of the row `change` writes, when its values name it.
    private func partition(of change: PendingChange) -> String? {
        switch change {
        case .insert(let table, let row, _):
            return partition(in: table, values: row.values)
        case .update(let table, let values, _, _), .upsert(let table, let values, _):
            return partition(in: table, values: values)
        default:
            return nil
        }
    }

    private func partition(in table: String, values: [DatabaseValue]) -> String? {
        guard let position = container.tables[table]?.partitionPosition, position < values.count,
              case .text(let partition) = values[position]
        else { return nil }
        return partition
    }

    private func schema(_ table: String) throws -> TableSchema {
        guard let schema = container.tables[table] else {
            throw StoreError.invalidSchema("the table '\(table)' belongs to no model of this container")
        }
        return schema
    }

    func encode<Model: PersistentModel>(_ model: Model) -> [DatabaseValue] {
        StagedRow.encode(model)
    }

    /// The once-per-model consistency check, or nil when this model type passed it already.
    ///
    /// One staged row of a type carries it: the rows staged after it are saved with it, in
    /// the same transaction, after it (a bulk insert of 100,000 rows otherwise made and ran
    /// a check for each, each holding a copy of its model).
    private func check<Model: PersistentModel>(_ model: Model) -> ModelCheck? {
        let key = ObjectIdentifier(Model.self)
        guard !checksStaged.contains(key), !container.checkedModels.withLock({ $0.contains(key) }) else { return nil }
        checksStaged.insert(key)
        let container = self.container
        return ModelCheck { database in
            // Another context's save may have run the check since this one was staged.
            guard !container.checkedModels.withLock({ $0.contains(key) }) else { return }
            let stored = try ModelContext.fetchRows(Model.self, sql: "SELECT \(ModelContext.selectColumns(Model.self)) FROM \(quote(Model.schema.tableName)) AS t WHERE t.\"id\" = ?", arguments: [model.id.databaseValue], in: database)
            guard let readBack = stored.first else { return }
            for column in Model.schema.columns where !column.isSequence && column.encode(readBack.model) != column.encode(model) {
                throw StoreError.invalidSchema(
                    "\(Model.self).\(column.name) reads back a different value than its key path wrote: the column name must equal the property's coding key")
            }
            _ = container.checkedModels.withLock { $0.insert(key) }
        }
    }
}

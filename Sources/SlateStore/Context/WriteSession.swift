import Foundation

/// The before- and after-image of one row touched by a commit: what undo and redo replay.
struct RowImage: Codable, Sendable {
    let table: String
    let id: String
    /// The row before the change (with `_pk`), nil when the change created it.
    let before: Row?
    /// The row after the change, nil when the change deleted it.
    let after: Row?
}

/// One write transaction in progress: applies changes with their delete rules, stamps
/// each row and tombstone with its partition's revision (taken the first time the commit
/// touches that partition; rows of no partition get the store sequence), and gathers
/// what the commit notification and the undo log need.
final class WriteSession {
    let database: Database
    /// `database` when it is SQLite (for the rowid of the row an INSERT made).
    let sqlite: SQLiteDatabase?
    let tables: TableCatalog
    /// The commit's store sequence (see `ChangeLog`).
    let revision: Int
    /// The revision taken in each partition this commit touched, by partition value.
    private(set) var revisions: [String: Int] = [:]
    let recordsImages: Bool
    /// Inserted rows are recorded by id (`created`) instead of by image: for bulk writes.
    let recordsInsertsByID: Bool
    private(set) var images: [RowImage] = []
    /// Ids of the rows inserted, per table, when `recordsInsertsByID`.
    var created: [String: [String]] = [:]
    var createdSet: Set<String> = []
    /// The content digest of each row in `created` (`RowDigest`), by table and id.
    var createdDigests: [String: UInt64] = [:]
    /// The next number of each sequence column, per table, column and partition, once read:
    /// a bulk insert reads the maximum once, not once per row.
    var nextSequence: [SequenceKey: Int64] = [:]
    private(set) var changes: [String: TableChanges] = [:]
    var partitions: Set<String> = []
    /// The rows this session wrote in tables with a full-text index, by table and `_pk`:
    /// what `applyDerivedChanges` brings the index up to date from.
    var derived: [String: [Int64: DerivedRow]] = [:]
    /// How far back departures are kept (`ModelConfiguration.departureHistory`); nil: the
    /// session prunes none (a copy, a migration).
    var departureHistory: Int?
    /// Per table, whether it may hold tombstones: read once per session, set once the
    /// session leaves one (see `mayHaveTombstones`).
    var tombstoneTables: [String: Bool] = [:]
    /// A partition's revision taken in the statement that took `revision`
    /// (`ChangeLog.nextRevision(_:takingRevisionOf:)`), until the session first stamps a row of
    /// that partition. It goes with the session: a save that fails takes it again.
    var takenWithSequence: (partition: String, revision: Int)?

    init(database: Database, tables: TableCatalog, revision: Int, recordsImages: Bool, recordsInsertsByID: Bool = false) {
        self.database = database
        self.sqlite = database as? SQLiteDatabase
        self.tables = tables
        self.revision = revision
        self.recordsImages = recordsImages
        self.recordsInsertsByID = recordsInsertsByID
    }

    /// The revision that stamps a row of `partition` in this commit (the store sequence
    /// for nil), taken from the partition's counter the first time.
    func revision(for partition: String?) throws -> Int {
        guard let partition else { return revision }
        if let taken = revisions[partition] { return taken }
        let taken: Int
        if let early = takenWithSequence, early.partition == partition {
            takenWithSequence = nil
            try ChangeLog.recordInCommitLog(sequence: revision, partition: partition, revision: Int64(early.revision), in: database)
            taken = early.revision
        } else {
            taken = try ChangeLog.nextRevision(partition: partition, sequence: revision, in: database)
        }
        revisions[partition] = taken
        partitions.insert(partition)
        if let history = departureHistory, taken % max(1, min(1_000, history / 10)) == 0, taken > history {
            let grouped = tables.all.values.filter { $0.groupPosition != nil }.map(\.tableName).sorted()
            try ChangeLog.pruneDepartures(tables: grouped, partition: partition, through: taken - history, in: database)
        }
        return taken
    }

    func revisionValue(for partition: String?) throws -> DatabaseValue {
        .integer(Int64(try revision(for: partition)))
    }

    /// The partition of a row given by its values in `table.columns` order.
    func partitionOf(_ table: TableSchema, _ values: [DatabaseValue]) -> String? {
        guard let position = table.partitionPosition, case .text(let value) = values[position] else { return nil }
        return value
    }

    /// The partition of a row given as an image (nil for nil).
    func partitionOf(_ table: TableSchema, row: Row?) -> String? {
        guard let row, let position = table.partitionPosition, case .text(let value) = row[table.columns[position].name] else { return nil }
        return value
    }

    // MARK: Inserting and updating

    /// Inserts a row; `values` follow `table.columns`, id first.
    func insert(_ table: TableSchema, _ values: [DatabaseValue]) throws {
        var values = values
        if !nextSequence.isEmpty, table.sequencePositions.contains(where: { values[$0] != .integer(0) }) {
            forgetSequenceNumbers(table)
        }
        for position in table.sequencePositions where values[position] == .integer(0) {
            values[position] = .integer(try takeSequenceNumber(table, position, partition: table.partitionPosition.map { values[$0] }))
        }
        let id = values[0]
        notePartition(table, values)
        try insertRow(table, values, stamp: try revisionValue(for: partitionOf(table, values)))
        noteDerived(table, pk: lastInsertedRowID, before: { nil }, after: tracked(table, values: values))
        if case .text(let text) = id, try mayHaveTombstones(table) {
            try ChangeLog.forgetDeletion(table: table.tableName, id: text, in: database)
        }
        try note(table, id, inserted: true, before: nil, values: values)
    }

    /// Updates an existing row; refuses when it is missing or its revision is not `expectedRevision`.
    func update(_ table: TableSchema, _ values: [DatabaseValue], expectedRevision: Int?) throws {
        var values = values
        let id = values[0]
        let stored = try checkedRow(table, id, expectedRevision: expectedRevision)
        // A sequence number left at 0 keeps the one the store assigned.
        for position in table.sequencePositions where values[position] == .integer(0) {
            values[position] = stored[table.columns[position].name]
        }
        notePartition(table, values)
        if let position = table.groupPosition {
            let left = stored[table.columns[position].name]
            if left != values[position] { try noteDeparture(table, id, partition: partitionOf(table, values), group: left) }
        }
        if let position = table.partitionPosition, case .text(let old) = stored[table.columns[position].name] {
            // A row moved to another partition is a change of the one it left too.
            _ = try revision(for: old)
        }
        let stamp = try revisionValue(for: partitionOf(table, values))
        var after: Row?
        if database.dialect == .sqlite {
            // Only the columns whose value changes: SQLite rewrites the entry of every index on
            // a column the UPDATE assigns, same value or not (a task's twelve, for a completion
            // that changes three columns), and each rewritten page is one more page in the WAL.
            let changed = table.columns.indices.dropFirst().filter { values[$0] != stored[table.columns[$0].name] }
            try database.execute(table.updateSQL(changing: changed), changed.map { values[$0] } + [stamp, id])
        } else {
            // PostgreSQL writes a new version of the whole row whatever it assigns (and its
            // search document with it): the full UPDATE, as before.
            after = try updateRow(table, values, stamp: stamp, returningImage: recordsImages)
        }
        if let pk = Int64.fromDatabaseValue(stored["_pk"]) {
            noteDerived(table, pk: pk, before: { tracked(table, row: stored) }, after: tracked(table, values: values))
        }
        try note(table, id, inserted: false, before: recordsImages ? stored : nil, values: values, after: after)
    }

    /// Inserts the row, or updates it when its id exists.
    func upsert(_ table: TableSchema, _ values: [DatabaseValue]) throws {
        if try image(table, values[0]) != nil {
            try update(table, values, expectedRevision: nil)
        } else {
            try insert(table, values)
        }
    }

    // MARK: Deleting, with delete rules

    /// Deletes a row after applying the delete rule of every reference to it.
    func delete(_ table: TableSchema, id: DatabaseValue, expectedRevision: Int?) throws {
        try checkRevision(table, id, expectedRevision: expectedRevision)
        try cascadeDelete(table, id: id)
    }

    /// Deletes a row and, depth first, every row its cascade rules reach, children before
    /// their parent. A work list, not recursion: a chain of subtasks thousands deep must
    /// not reach the call stack.
    private func cascadeDelete(_ table: TableSchema, id: DatabaseValue) throws {
        var visited: Set<String> = []
        // `expanded`: its dependents are handled (pushed above it, or nullified); the row
        // itself goes once they are gone.
        var work: [(table: TableSchema, id: DatabaseValue, expanded: Bool)] = [(table, id, false)]
        while let (table, id, expanded) = work.popLast() {
            if expanded {
                try deleteRow(table, id: id)
                continue
            }
            guard visited.insert(table.tableName + "/" + id.description).inserted else { continue }
            work.append((table, id, true))
            var cascaded: [(TableSchema, DatabaseValue)] = []
            for (child, column) in references(to: table.tableName) {
                let dependents = try database.rows(
                    "SELECT \"id\" FROM \(quote(child.tableName)) WHERE \(quote(column.name)) = ?", [id])
                    .map { $0["id"] }
                guard !dependents.isEmpty else { continue }
                switch column.reference?.deleteRule {
                case .deny:
                    let modelID = UUID.fromDatabaseValue(id) ?? UUID()
                    throw StoreError.deleteDenied(
                        model: table.modelName, id: modelID, dependents: "\(child.modelName) rows", count: dependents.count)
                case .cascade:
                    cascaded += dependents.map { (child, $0) }
                case .nullify:
                    for dependent in dependents {
                        let before = try image(child, dependent)
                        let partition = try partitionValue(child, dependent)
                        try database.execute(
                            "UPDATE \(quote(child.tableName)) SET \(quote(column.name)) = NULL, \"_rev\" = ? WHERE \"id\" = ?",
                            [try revisionValue(for: partition), dependent])
                        if let before, let pk = Int64.fromDatabaseValue(before["_pk"]) {
                            var after = before
                            after.values[column.name] = .null
                            noteDerived(child, pk: pk, before: { tracked(child, row: before) }, after: tracked(child, row: after))
                        }
                        try note(child, dependent, inserted: false, before: before)
                        if let position = child.groupPosition, child.columns[position].name == column.name {
                            try noteDeparture(child, dependent, partition: partition, group: id)
                        }
                    }
                case nil:
                    continue
                }
            }
            // Reversed so that the first dependent is handled first, as the rules list them.
            for (child, dependent) in cascaded.reversed() { work.append((child, dependent, false)) }
        }
    }

    /// Deletes one row whose dependents are already handled, with its tombstone and image.
    private func deleteRow(_ table: TableSchema, id: DatabaseValue) throws {
        let before = recordsImages ? try image(table, id) : nil
        var stored: (pk: Int64, values: [DatabaseValue])?
        if keepsDerived(table) {
            if let before, let pk = Int64.fromDatabaseValue(before["_pk"]) {
                stored = (pk, tracked(table, row: before) ?? [])
            } else if let found = try storedTracked(table, id: id) {
                stored = (found.pk, found.values)
            }
        }
        let partition = try partitionValue(table, id)
        let group = table.groupPosition == nil ? nil : try groupValue(table, id)
        try database.execute("DELETE FROM \(quote(table.tableName)) WHERE \"id\" = ?", [id])
        guard database.changesCount == 1 else { return }
        if let stored { noteDerived(table, pk: stored.pk, before: { stored.values }, after: nil) }
        if let group { try noteDeparture(table, id, partition: partition, group: group) }
        if case .text(let text) = id {
            try ChangeLog.recordDeletion(table: table.tableName, id: text, partition: partition,
                                         revision: try revision(for: partition), in: database)
            tombstoneTables[table.tableName] = true
        }
        record(table, id, .deleted)
        if recordsImages, case .text(let text) = id {
            // A row this commit inserted and deleted again leaves nothing to undo.
            if createdSet.remove(table.tableName + "/" + text) != nil {
                created[table.tableName]?.removeAll { $0 == text }
                return
            }
            images.append(RowImage(table: table.tableName, id: text, before: before, after: nil))
        }
    }

    private func references(to tableName: String) -> [(TableSchema, TableSchema.ColumnInfo)] {
        tables.all.values.sorted { $0.tableName < $1.tableName }.flatMap { table in
            table.columns.filter { $0.reference?.tableName == tableName }.map { (table, $0) }
        }
    }

    // MARK: Replaying images (undo and redo)

    /// Puts a row back into the state `target` (nil: absent), after checking that it is
    /// still in the state `expected` that the change left it in.
    func restore(_ image: RowImage, expected: Row?, target: Row?) throws {
        guard let table = tables[image.table] else {
            throw StoreError.invalidSchema("the undo log names table '\(image.table)', which the container does not know")
        }
        let id = DatabaseValue.text(image.id)
        let current = try self.image(table, id)
        guard Self.sameContent(current, expected) else {
            throw StoreError.conflict(
                model: table.modelName, id: UUID(uuidString: image.id) ?? UUID(),
                expectedRevision: expected.flatMap { Int.fromDatabaseValue($0["_rev"]) } ?? 0,
                actualRevision: current.flatMap { Int.fromDatabaseValue($0["_rev"]) } ?? 0)
        }
        for row in [current, target] {
            if let partition = partitionOf(table, row: row) { _ = try revision(for: partition) }
        }
        let stamp = try revisionValue(for: partitionOf(table, row: target ?? current))
        if let position = table.groupPosition, let current {
            let name = table.columns[position].name
            if target?[name] != current[name] {
                try noteDeparture(table, id, partition: partitionOf(table, row: current), group: current[name])
            }
        }
        switch (current, target) {
        case (nil, nil):
            return
        case (.some(let row), nil):
            let partition = try partitionValue(table, id)
            try database.execute("DELETE FROM \(quote(table.tableName)) WHERE \"id\" = ?", [id])
            if let pk = Int64.fromDatabaseValue(row["_pk"]) {
                noteDerived(table, pk: pk, before: { tracked(table, row: row) }, after: nil)
            }
            try ChangeLog.recordDeletion(table: table.tableName, id: image.id, partition: partition,
                                         revision: try revision(for: partition), in: database)
            tombstoneTables[table.tableName] = true
            record(table, id, .deleted)
        case (nil, .some(let row)):
            let values = table.columnNames.map { row[$0] }
            let taken = try database.scalar("SELECT 1 FROM \(quote(table.tableName)) WHERE \"_pk\" = ?", [row["_pk"]]) != nil
            if taken {
                try insertRow(table, values, stamp: stamp)
            } else {
                try insertRow(table, key: row["_pk"], values, stamp: stamp)
            }
            noteDerived(table, pk: lastInsertedRowID, before: { nil }, after: tracked(table, row: row))
            try ChangeLog.forgetDeletion(table: table.tableName, id: image.id, in: database)
            record(table, id, .inserted)
        case (.some(let stored), .some(let row)):
            try updateRow(table, table.columnNames.map { row[$0] }, stamp: stamp)
            if let pk = Int64.fromDatabaseValue(stored["_pk"]) {
                noteDerived(table, pk: pk, before: { tracked(table, row: stored) }, after: tracked(table, row: row))
            }
            record(table, id, .updated)
        }
    }

    /// Two images describe the same row content (revision and rowid aside).
    static func sameContent(_ lhs: Row?, _ rhs: Row?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (let lhs?, let rhs?):
            let ignored: Set<String> = ["_rev", "_pk"]
            return lhs.values.filter { !ignored.contains($0.key) } == rhs.values.filter { !ignored.contains($0.key) }
        default: return false
        }
    }

    // MARK: Images and bookkeeping

    /// Whether `table` may hold a tombstone that an insert must take away (a row deleted
    /// once and written again, by undo or a sync client). A table without any, like every
    /// table of a first import, skips the DELETE per inserted row (≈7,000 instructions).
    func mayHaveTombstones(_ table: TableSchema) throws -> Bool {
        // PostgreSQL: several nodes write at once, so no session can know a table stays
        // without tombstones; the DELETE runs, as before.
        guard database.dialect == .sqlite else { return true }
        if let known = tombstoneTables[table.tableName] { return known }
        let found = try database.scalar("SELECT 1 FROM _slate_tombstones WHERE table_name = ? LIMIT 1", [.text(table.tableName)]) != nil
        tombstoneTables[table.tableName] = found
        return found
    }

    /// The group column's value of a stored row (`.null` when absent).
    private func groupValue(_ table: TableSchema, _ id: DatabaseValue) throws -> DatabaseValue {
        guard let position = table.groupPosition else { return .null }
        return try database.scalar("SELECT \(quote(table.columns[position].name)) FROM \(quote(table.tableName)) WHERE \"id\" = ?", [id]) ?? .null
    }

    /// Records that a row left `group`, under its partition's revision in this commit.
    func noteDeparture(_ table: TableSchema, _ id: DatabaseValue, partition: String?, group: DatabaseValue) throws {
        guard case .text(let text) = id else { return }
        try ChangeLog.recordDeparture(table: table.tableName, id: text, partition: partition, group: group,
                                      revision: try revision(for: partition), in: database)
    }

    /// The row as stored now, with `_pk` and `_rev`, or nil when absent.
    func image(_ table: TableSchema, _ id: DatabaseValue) throws -> Row? {
        try database.rows(table.selectImageSQL, [id]).first
    }

    /// The stored row (with `_pk` and `_rev`); refuses a missing row or another revision.
    private func checkedRow(_ table: TableSchema, _ id: DatabaseValue, expectedRevision: Int?) throws -> Row {
        let modelID = UUID.fromDatabaseValue(id) ?? UUID()
        guard let stored = try image(table, id), let actual = Int.fromDatabaseValue(stored["_rev"]) else {
            throw StoreError.notFound(model: table.modelName, id: modelID)
        }
        if let expectedRevision, expectedRevision != actual {
            throw StoreError.conflict(model: table.modelName, id: modelID, expectedRevision: expectedRevision, actualRevision: actual)
        }
        return stored
    }

    /// Refuses a missing row or another revision than `expectedRevision`.
    private func checkRevision(_ table: TableSchema, _ id: DatabaseValue, expectedRevision: Int?) throws {
        let stored = try database.scalar("SELECT \"_rev\" FROM \(quote(table.tableName)) WHERE \"id\" = ?", [id])
        let modelID = UUID.fromDatabaseValue(id) ?? UUID()
        guard let stored, let actual = Int.fromDatabaseValue(stored) else {
            throw StoreError.notFound(model: table.modelName, id: modelID)
        }
        if let expectedRevision, expectedRevision != actual {
            throw StoreError.conflict(model: table.modelName, id: modelID, expectedRevision: expectedRevision, actualRevision: actual)
        }
    }

    /// Records the change of a row and, when the session keeps them, its images: `after`
    /// when the write answered it, else read now.
    private func note(_ table: TableSchema, _ id: DatabaseValue, inserted: Bool, before: Row?, values: [DatabaseValue]? = nil,
                      after: Row? = nil) throws {
        record(table, id, inserted ? .inserted : .updated)
        guard recordsImages, case .text(let text) = id else { return }
        if recordsInsertsByID, let values, noteCreated(table, text, inserted: inserted, values: values) { return }
        images.append(RowImage(table: table.tableName, id: text, before: before, after: try after ?? image(table, id)))
    }

    /// What happened to a row, for the commit's `TableChanges`.
    enum RowChange { case inserted, updated, deleted }

    // A case, not a key path into `TableChanges`: the first key path of that type a process
    // made cost 0.4M instructions (its generic class's metadata), a tenth of a one-task save.
    func record(_ table: TableSchema, _ id: DatabaseValue, _ kind: RowChange) {
        guard let uuid = UUID.fromDatabaseValue(id) else { return }
        // Changed in place (the dictionary's `default:` subscript yields its value without a
        // copy): a set copied out and back in left a second reference, and every insert copied
        // the whole set (quadratic in the rows of one save).
        Self.record(uuid, kind, in: &changes[table.tableName, default: TableChanges()])
    }

    private static func record(_ uuid: UUID, _ kind: RowChange, in tableChanges: inout TableChanges) {
        switch kind {
        case .deleted:
            // A row created and deleted in one commit never existed for anyone else.
            if tableChanges.inserted.remove(uuid) == nil { tableChanges.deleted.insert(uuid) }
            tableChanges.updated.remove(uuid)
        case .inserted:
            // Removed and made again in one commit: it existed before, and exists after.
            if !tableChanges.deleted.isEmpty, tableChanges.deleted.remove(uuid) != nil {
                tableChanges.updated.insert(uuid)
            } else {
                tableChanges.inserted.insert(uuid)
            }
        case .updated:
            if !tableChanges.inserted.contains(uuid) { tableChanges.updated.insert(uuid) }
        }
    }

    /// The commit notification for what this session wrote.
    func commit(origin: Commit.Origin) -> Commit {
        Commit(revision: revision, origin: origin, tables: changes.filter { !$0.value.isEmpty }, partitions: partitions,
               revisions: revisions)
    }

    private func notePartition(_ table: TableSchema, _ values: [DatabaseValue]) {
        guard let position = table.partitionPosition, case .text(let value) = values[position] else { return }
        partitions.insert(value)
    }

    /// The stored partition value of a row (nil without a partition column), also noted
    /// as touched by this commit.
    private func partitionValue(_ table: TableSchema, _ id: DatabaseValue) throws -> String? {
        guard let position = table.partitionPosition else { return nil }
        let value = try database.scalar(
            "SELECT \(quote(table.columns[position].name)) FROM \(quote(table.tableName)) WHERE \"id\" = ?", [id])
        guard case .text(let text)? = value else { return nil }
        partitions.insert(text)
        return text
    }
}

import Foundation

/// Copying a whole store to another backend (`slate migrate`): every row of every model
/// with its hidden key and revision, and the store's own tables — revision counters, the
/// commit log, tombstones, the undo history, rows' departures from their groups — so that
/// sync clients, ETags and undo carry on as if nothing had moved. Then the copy is checked
/// against the original, row by row.
extension ModelContainer {
    /// Rows copied per table, in one destination transaction.
    public typealias CopyCounts = [String: Int]

    /// The store's own tables that a copy carries, and their keys (primary keys, never
    /// NULL, text compared byte by byte on both backends), which order and page them.
    private static let internalTables: [(name: String, columns: [String], key: [String])] = [
        ("_slate_revisions", ["partition", "value"], ["partition"]),
        ("_slate_commits", ["seq", "partition", "revision"], ["seq", "partition"]),
        ("_slate_tombstones", ["table_name", "id", "revision", "partition"], ["table_name", "id"]),
        ("_slate_undo", ["seq", "stack", "revision", "payload", "partition"], ["seq"]),
        ("_slate_departures", ["seq", "table_name", "id", "partition", "group_value", "revision"], ["seq"]),
    ]

    /// The counters of `_slate_meta` that belong to the data (the schema's own keys are the
    /// destination's, written when it was opened).
    private static let copiedMetaKeys = ["revision", "revision_floor", "commit_log_floor"]

    /// Rows read from the source at a time, within its one snapshot (tests pass fewer, to
    /// copy and check several pages of a small store).
    static let defaultPageSize = 2_000

    /// Copies everything in this store into `destination`, which must have the same models
    /// (but for `transient` ones: state that is not data, left out of the copy and its check)
    /// and schema version and hold nothing yet; all in one transaction of the destination,
    /// read from one snapshot of this store. Returns the rows copied per table.
    public func copy(into destination: ModelContainer, leaving transient: [any PersistentModel.Type] = []) throws -> CopyCounts {
        try copy(into: destination, leaving: transient, pageSize: Self.defaultPageSize)
    }

    func copy(into destination: ModelContainer, leaving transient: [any PersistentModel.Type], pageSize: Int) throws -> CopyCounts {
        let copied = try Self.copiedTables(self, destination, transient)
        guard destination.configuration.schemaVersion == configuration.schemaVersion else {
            throw StoreError.invalidSchema("the destination is at schema \(destination.configuration.schemaVersion), this store at \(configuration.schemaVersion)")
        }
        let held = try destination.currentRevision()
        guard held == 0, try destination.pool.read({ try Self.isEmpty(destination.tables.all, $0) }) else {
            throw StoreError.cannotOpen(
                path: destination.configuration.databaseDescription,
                reason: "it already holds a Slate store (revision \(held)); copy into an empty database, schema or file")
        }
        var counts: CopyCounts = [:]
        try pool.read { source in
            try destination.pool.write { target in
                try target.transaction {
                    let session = WriteSession(database: target, tables: destination.tables, revision: 0, recordsImages: false)
                    for table in copied {
                        counts[table.tableName] = try Self.copyRows(of: table, from: source, into: session, pageSize: pageSize)
                    }
                    // A SQLite destination's full-text and count indexes, from the rows copied.
                    try session.applyDerivedChanges()
                    for log in Self.internalTables {
                        counts[log.name] = try Self.copyInternal(log, from: source, into: target, pageSize: pageSize)
                    }
                    for key in Self.copiedMetaKeys {
                        guard let value = try source.scalar("SELECT value FROM _slate_meta WHERE key = ?", [.text(key)]) else { continue }
                        try target.execute(
                            "INSERT INTO _slate_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                            [.text(key), value])
                    }
                    if target.dialect == .postgreSQL { try Self.advanceIdentities(destination.tables.all.values, in: target) }
                }
            }
        }
        destination.notifier.markChecked(upTo: try destination.currentRevision())
        return counts
    }

    /// Throws, naming the first difference, unless `other` holds exactly this store's rows
    /// (every model's columns, hidden keys and revisions; the revision counters, commit
    /// log, tombstones and undo history).
    public func verifyCopy(in other: ModelContainer, leaving transient: [any PersistentModel.Type] = []) throws {
        try verifyCopy(in: other, leaving: transient, pageSize: Self.defaultPageSize)
    }

    func verifyCopy(in other: ModelContainer, leaving transient: [any PersistentModel.Type], pageSize: Int) throws {
        let copied = try Self.copiedTables(self, other, transient)
        try pool.read { mine in
            try other.pool.read { theirs in
                for table in copied {
                    let columns = (["_pk"] + table.columnNames + ["_rev"]).map(quote).joined(separator: ", ")
                    try Self.compare(table.tableName, "SELECT \(columns) FROM \(quote(table.tableName))", key: ["_pk"],
                                     pageSize: pageSize, mine, theirs)
                }
                for log in Self.internalTables {
                    try Self.compare(log.name, "SELECT \(log.columns.joined(separator: ", ")) FROM \(log.name)",
                                     key: log.key, pageSize: pageSize, mine, theirs)
                }
                let keys = DatabaseValue.text("[" + Self.copiedMetaKeys.map { "\"\($0)\"" }.joined(separator: ",") + "]")
                let meta = { (database: Database) in
                    try database.rows("SELECT key, value FROM _slate_meta WHERE key \(database.dialect.inBoundTexts) ORDER BY key", [keys])
                }
                guard try meta(mine) == meta(theirs) else {
                    throw StoreError.invalidSchema("the copy's revision counters differ from the original's")
                }
            }
        }
    }

    /// The tables both stores have, in name order; throws when either has one the other
    /// lacks (besides `transient` models).
    private static func copiedTables(_ source: ModelContainer, _ destination: ModelContainer,
                                     _ transient: [any PersistentModel.Type]) throws -> [TableSchema] {
        let left = Set(transient.map(tableName(of:)))
        let mine = Set(source.tables.all.keys).subtracting(left), theirs = Set(destination.tables.all.keys).subtracting(left)
        guard mine == theirs else {
            throw StoreError.invalidSchema("the two stores have other models: \(mine.symmetricDifference(theirs).sorted().joined(separator: ", "))")
        }
        return mine.sorted().compactMap { source.tables[$0] }
    }

    private static func tableName(of model: any PersistentModel.Type) -> String {
        func name<Model: PersistentModel>(_ type: Model.Type) -> String { Model.schema.tableName }
        return name(model)
    }

    private static func isEmpty(_ tables: [String: TableSchema], _ database: Database) throws -> Bool {
        for table in tables.keys.sorted() {
            if try database.scalar("SELECT 1 FROM \(quote(table)) LIMIT 1") != nil { return false }
        }
        return true
    }

    private static func copyRows(of table: TableSchema, from source: Database, into session: WriteSession, pageSize: Int) throws -> Int {
        let columns = (["_pk"] + table.columnNames + ["_rev"]).map(quote).joined(separator: ", ")
        var last: DatabaseValue = .integer(Int64.min)
        var count = 0
        while true {
            let rows = try source.rows(
                "SELECT \(columns) FROM \(quote(table.tableName)) WHERE \"_pk\" > ? ORDER BY \"_pk\" LIMIT \(pageSize)", [last])
            for row in rows {
                let values = table.columnNames.map { row[$0] }
                try session.insertRow(table, key: row["_pk"], values, stamp: row["_rev"])
                if let pk = Int64.fromDatabaseValue(row["_pk"]) {
                    session.noteDerived(table, pk: pk, before: { nil }, after: session.tracked(table, values: values))
                }
            }
            count += rows.count
            guard rows.count == pageSize, let next = rows.last?["_pk"] else { return count }
            last = next
        }
    }

    private static func copyInternal(_ log: (name: String, columns: [String], key: [String]), from source: Database,
                                     into target: Database, pageSize: Int) throws -> Int {
        let marks = Array(repeating: "?", count: log.columns.count).joined(separator: ", ")
        let insert = "INSERT INTO \(log.name) (\(log.columns.joined(separator: ", "))) VALUES (\(marks))"
        let select = "SELECT \(log.columns.joined(separator: ", ")) FROM \(log.name)"
        var count = 0
        var after: [DatabaseValue]?
        while true {
            let rows = try page(select, key: log.key, after: after, size: pageSize, in: source)
            for row in rows { try target.execute(insert, log.columns.map { row[$0] }) }
            count += rows.count
            guard rows.count == pageSize, let last = rows.last else { return count }
            after = log.key.map { last[$0] }
        }
    }

    /// One page of `select`'s rows in `key` order: the first `size` rows after the key
    /// `after` (from the start when nil). A page is found through the key's index, however
    /// far into the table it is (`OFFSET` reads and drops every row before it, which made
    /// copying a million tasks quadratic).
    private static func page(_ select: String, key: [String], after: [DatabaseValue]?, size: Int, in database: Database) throws -> [Row] {
        let order = key.map(quote).joined(separator: ", ")
        guard let after else { return try database.rows("\(select) ORDER BY \(order) LIMIT \(size)") }
        let marks = Array(repeating: "?", count: key.count).joined(separator: ", ")
        let past = key.count == 1 ? "\(order) > ?" : "(\(order)) > (\(marks))"
        return try database.rows("\(select) WHERE \(past) ORDER BY \(order) LIMIT \(size)", after)
    }

    /// PostgreSQL's identity columns count on from their own sequence, which explicit keys
    /// do not move: set each past the largest key copied.
    private static func advanceIdentities(_ tables: some Sequence<TableSchema>, in database: Database) throws {
        for (table, column) in tables.map({ ($0.tableName, "_pk") }) + [("_slate_undo", "seq"), ("_slate_departures", "seq")] {
            _ = try database.scalar(
                "SELECT setval(pg_get_serial_sequence(?, ?), coalesce((SELECT max(\(quote(column))) FROM \(quote(table))), 0) + 1, false)",
                [.text(quote(table)), .text(column)])
        }
    }

    private static func compare(_ name: String, _ select: String, key: [String], pageSize: Int,
                                _ mine: Database, _ theirs: Database) throws {
        var compared = 0
        var after: [DatabaseValue]?
        while true {
            let left = try page(select, key: key, after: after, size: pageSize, in: mine)
            let right = try page(select, key: key, after: after, size: pageSize, in: theirs)
            guard left == right else {
                let index = zip(left, right).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(left.count, right.count)
                throw StoreError.invalidSchema("the copy differs from the original in \(name), at row \(compared + index + 1)")
            }
            guard left.count == pageSize, let last = left.last else { return }
            compared += left.count
            after = key.map { last[$0] }
        }
    }
}

import Foundation

/// Creates or upgrades a database to the container's schema, all in one transaction.
struct Migrator {
    /// The version of the store's own tables (`_slate_…`) and of how it keeps what it
    /// derives from rows: 2, per-partition revisions; 3, departures (`_slate_departures`);
    /// 4, the full-text index kept by saves (`WriteSession.applyDerivedChanges`) instead of
    /// triggers, and count indexes (`_slate_counts`).
    static let internalLayout = 4

    let catalog: TableCatalog
    let version: Int
    let stages: [MigrationStage]
    /// The SQLite fingerprint the configuration declares (`ModelConfiguration.schemaFingerprint`).
    var declaredFingerprint: Int64? = nil

    /// Every table, in name order.
    var tables: [TableSchema] { catalog.all.values.sorted { $0.tableName < $1.tableName } }

    /// The schema version recorded in the file, 0 for a new file.
    static func storedVersion(in database: Database) throws -> Int {
        let hasMeta = try database.scalar(database.dialect == .postgreSQL
            ? "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = '_slate_meta'"
            : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_slate_meta'")
        guard case .integer(1) = hasMeta else { return 0 }
        let value = try database.scalar("SELECT value FROM _slate_meta WHERE key = 'schema_version'")
        if case .integer(let version) = value { return Int(version) }
        return 0
    }

    /// A digest of everything `migrate` brings a file to: the version and, for every
    /// table, its DDL, indexes and search index. FNV-1a, so it is the same in every process.
    func fingerprint(_ dialect: SQLDialect) -> Int64 {
        // The layout of the store's own tables, so that a file from before a change to
        // them (per-partition revisions: layout 2; departures: 3; no search triggers, count
        // indexes: 4) is brought up to it when opened.
        var text = "\(version)\nlayout \(Self.internalLayout)\n"
        if dialect == .postgreSQL { return Self.digest(text + postgreSQLSchemaText) }
        for table in tables {
            text += ([table.createTableSQL] + table.createIndexesSQL).joined(separator: "\n")
            if !table.searchableColumns.isEmpty {
                text += "\n" + table.createSearchIndexSQL
            }
            for index in table.countIndexes { text += "\ncount " + table.storedName(of: index) + " " + index.columns.joined(separator: ",") }
            text += "\n"
        }
        return Self.digest(text)
    }

    /// FNV-1a of `text`.
    static func digest(_ text: String) -> Int64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }

    /// True when the file was last migrated to exactly this schema, so that opening it
    /// needs no write: no DDL, no foreign key check, no commit (and no WAL to fold back).
    func isCurrent(_ database: Database) throws -> Bool {
        guard try Self.storedVersion(in: database) == version else { return false }
        let value = try database.scalar("SELECT value FROM _slate_meta WHERE key = 'schema_fingerprint'")
        if case .integer(let stored) = value { return stored == expectedFingerprint(database.dialect) }
        return false
    }

    /// The fingerprint a current file has: on SQLite the declared one when there is one
    /// (no table built), else the computed one.
    private func expectedFingerprint(_ dialect: SQLDialect) -> Int64 {
        if dialect == .sqlite, let declaredFingerprint { return declaredFingerprint }
        return fingerprint(dialect)
    }

    /// Opens a PostgreSQL store: refuses a newer schema, migrates an older one (or a new,
    /// empty schema) unless read-only.
    func open(_ database: Database, readOnly: Bool) throws {
        let stored = try checkCompatible(database)
        if readOnly {
            guard stored == version, try isCurrent(database) else {
                throw StoreError.migrationFailed(
                    version: version, reason: "the database has schema \(stored) and was opened read-only, so it cannot be migrated")
            }
            return
        }
        if try !isCurrent(database) { try migrate(database) }
    }

    /// Refuses a file written by a newer schema before anything touches it.
    func checkCompatible(_ database: Database) throws -> Int {
        let stored = try Self.storedVersion(in: database)
        if stored > version { throw StoreError.newerSchema(fileVersion: stored, supportedVersion: version) }
        return stored
    }

    func migrate(_ database: Database) throws {
        _ = try catalog.validated()
        let written = fingerprint(database.dialect)
        if database.dialect == .sqlite, let declaredFingerprint, declaredFingerprint != written {
            throw StoreError.invalidSchema(
                "the configuration declares the schema fingerprint \(declaredFingerprint), but the models give \(written): declare \(written)")
        }
        let stored = try checkCompatible(database)
        let pending = stored == 0 ? [] : stages.filter { $0.version > stored && $0.version <= version }
            .sorted { $0.version < $1.version }
        try database.transaction {
            if database.dialect == .postgreSQL {
                // Two nodes starting at once: the second waits here, then finds nothing to do.
                try database.execute("SELECT pg_advisory_xact_lock(hashtext(current_schema()))", [])
                if try isCurrent(database) { return }
            }
            try createInternalTables(database)
            for stage in pending {
                try run(stage, stage.willMigrate, database)
            }
            for table in tables { try inferChanges(for: table, in: database) }
            if database.dialect == .postgreSQL { try addReferences(in: database) }
            for stage in pending {
                try run(stage, stage.didMigrate, database)
            }
            if database.dialect == .sqlite {
                // Counted again from the rows: an index may be new, and a stage may have
                // changed rows with SQL, past the saves that keep the counts. (PostgreSQL
                // keeps neither: rows carry their search document and counts are counted.)
                try database.execute("DELETE FROM _slate_counts")
                for table in tables {
                    for index in table.countIndexes {
                        try database.execute(table.countRebuildSQL(index), [.text(table.storedName(of: index))])
                    }
                }
                if !pending.isEmpty {
                    // A custom stage may have changed text with SQL, past the saves that keep
                    // the full-text index.
                    for table in tables where !table.searchableColumns.isEmpty {
                        try database.execute("INSERT INTO \(quote(table.ftsTableName))(\(quote(table.ftsTableName))) VALUES ('rebuild')")
                    }
                }
            }
            if stored != 0 && stored < version {
                // An upgrade is a commit: every row may read differently now, so it gets the
                // new revision (its partition's) and sync clients fetch it again.
                try stampEveryRow(database)
            }
            try database.execute(
                "INSERT INTO _slate_meta(key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [.integer(Int64(version))])
            try database.execute(
                "INSERT INTO _slate_meta(key, value) VALUES ('schema_fingerprint', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [.integer(written)])
            // PostgreSQL checks every reference at COMMIT itself.
            guard database.dialect == .sqlite else { return }
            let violations = try database.rows("PRAGMA foreign_key_check")
            if let first = violations.first {
                throw StoreError.migrationFailed(
                    version: version,
                    reason: "\(violations.count) rows break a reference, first in table \(first["table"])")
            }
        }
    }

    private func run(_ stage: MigrationStage, _ step: (@Sendable (Database) throws -> Void)?, _ database: Database) throws {
        guard let step else { return }
        do {
            try step(database)
        } catch let error as StoreError {
            if case .migrationFailed = error { throw error }
            throw StoreError.migrationFailed(version: stage.version, reason: "\(stage.name): \(error.description)")
        } catch {
            throw StoreError.migrationFailed(version: stage.version, reason: "\(stage.name): \(error)")
        }
    }

    /// Gives every row a new revision, one commit: its partition's, or the store sequence.
    private func stampEveryRow(_ database: Database) throws {
        let sequence = try ChangeLog.nextRevision(database)
        let session = WriteSession(database: database, tables: TableCatalog([]), revision: sequence, recordsImages: false)
        for table in tables {
            guard let partition = table.partitionName.map(quote) else {
                try database.execute("UPDATE \(quote(table.tableName)) SET \"_rev\" = ?", [try session.revisionValue(for: nil)])
                continue
            }
            for row in try database.rows("SELECT DISTINCT \(partition) AS partition FROM \(quote(table.tableName))") {
                let owner = database.dialect.sameValue(partition, row["partition"])
                try database.execute(
                    "UPDATE \(quote(table.tableName)) SET \"_rev\" = ? WHERE \(owner.sql)",
                    [try session.revisionValue(for: String.fromDatabaseValue(row["partition"]))] + owner.arguments)
            }
        }
        // Every row changed: other processes read the log, not an announcement's list.
        try ChangeLog.announce(sequence: sequence, changes: nil, in: database)
    }

    private func createInternalTables(_ database: Database) throws {
        if database.dialect == .postgreSQL { return try database.execute(Self.postgreSQLInternalTables) }
        // Per-partition revisions (layout 2): a file from before them starts every partition
        // at the store sequence it had reached (so no revision a client holds is ever
        // handed out again), and its commit log at that point.
        try database.execute("""
            CREATE TABLE IF NOT EXISTS _slate_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
            INSERT OR IGNORE INTO _slate_meta(key, value) VALUES ('revision', 0);
            INSERT OR IGNORE INTO _slate_meta(key, value) SELECT 'revision_floor', value FROM _slate_meta WHERE key = 'revision';
            INSERT OR IGNORE INTO _slate_meta(key, value) SELECT 'commit_log_floor', value FROM _slate_meta WHERE key = 'revision';
            CREATE TABLE IF NOT EXISTS _slate_revisions (partition TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
            CREATE TABLE IF NOT EXISTS _slate_commits (
                seq INTEGER NOT NULL, partition TEXT NOT NULL, revision INTEGER NOT NULL,
                PRIMARY KEY (seq, partition)) STRICT, WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS _slate_tombstones (
                table_name TEXT NOT NULL, id TEXT NOT NULL, revision INTEGER NOT NULL, partition TEXT,
                PRIMARY KEY (table_name, id)) STRICT;
            CREATE INDEX IF NOT EXISTS _slate_tombstones_by_revision ON _slate_tombstones(table_name, revision);
            CREATE INDEX IF NOT EXISTS _slate_tombstones_by_partition ON _slate_tombstones(table_name, partition, revision);
            CREATE TABLE IF NOT EXISTS _slate_undo (
                seq INTEGER PRIMARY KEY, stack TEXT NOT NULL, revision INTEGER NOT NULL, payload BLOB NOT NULL,
                partition TEXT) STRICT;
            CREATE INDEX IF NOT EXISTS _slate_undo_by_partition ON _slate_undo(partition, stack, seq);
            CREATE TABLE IF NOT EXISTS _slate_departures (
                seq INTEGER PRIMARY KEY, table_name TEXT NOT NULL, id TEXT NOT NULL, partition TEXT,
                group_value ANY, revision INTEGER NOT NULL) STRICT;
            CREATE INDEX IF NOT EXISTS _slate_departures_by_partition ON _slate_departures(table_name, partition, revision);
            CREATE TABLE IF NOT EXISTS _slate_counts (
                name TEXT NOT NULL, key TEXT NOT NULL, count INTEGER NOT NULL,
                PRIMARY KEY (name, key)) STRICT, WITHOUT ROWID;
            """)
    }

    /// Adds what the declaration has and the file lacks: tables, columns, indexes, search;
    /// drops the indexes it no longer declares.
    private func inferChanges(for table: TableSchema, in database: Database) throws {
        if database.dialect == .postgreSQL { return try postgreSQLInferChanges(for: table, in: database) }
        let existing = try database.rows("SELECT name, \"notnull\", dflt_value FROM pragma_table_info(?)", [.text(table.tableName)])
        if existing.isEmpty {
            try database.execute(table.createTableSQL)
        } else {
            let names = Set(existing.compactMap { String.fromDatabaseValue($0["name"]) })
            for column in table.columns where !names.contains(column.name) {
                if !column.isOptional, column.defaultValue == nil {
                    throw StoreError.migrationFailed(
                        version: version,
                        reason: "\(table.modelName).\(column.name) is new and not optional: give it a default in the schema")
                }
                try database.execute("ALTER TABLE \(quote(table.tableName)) ADD COLUMN \(table.columnDefinitionSQL(column))")
            }
            let declared = Set(table.columnNames + TableSchema.hiddenColumnNames)
            for row in existing {
                guard let name = String.fromDatabaseValue(row["name"]), !declared.contains(name) else { continue }
                if case .integer(1) = row["notnull"], row["dflt_value"].isNull {
                    throw StoreError.migrationFailed(
                        version: version,
                        reason: "\(table.tableName).\(name) is no longer declared but is NOT NULL: drop it in a custom stage")
                }
            }
        }
        try dropUndeclaredIndexes(of: table, in: database)
        for statement in table.createIndexesSQL { try database.execute(statement) }
        try inferSearchIndex(for: table, in: database)
    }

    /// Drops the indexes of the table that the declaration no longer names (a unique index
    /// replaced by one over other columns, say). SQLite's own indexes have no SQL and stay.
    private func dropUndeclaredIndexes(of table: TableSchema, in database: Database) throws {
        let declared = Set(table.indexNames)
        let stored = try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", [.text(table.tableName)])
        for name in stored.compactMap({ String.fromDatabaseValue($0["name"]) }) where !declared.contains(name) {
            try database.execute("DROP INDEX \(quote(name))")
        }
    }

    private func inferSearchIndex(for table: TableSchema, in database: Database) throws {
        for trigger in table.searchTriggerNames { try database.execute("DROP TRIGGER IF EXISTS \(quote(trigger))") }
        let current = try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table.ftsTableName)])
            .compactMap { String.fromDatabaseValue($0["name"]) }
        if current != table.searchableColumns, !current.isEmpty {
            try database.execute("DROP TABLE \(quote(table.ftsTableName))")
        }
        guard !table.searchableColumns.isEmpty else { return }
        if current != table.searchableColumns {
            try database.execute(table.createSearchIndexSQL)
            try database.execute("INSERT INTO \(quote(table.ftsTableName))(\(quote(table.ftsTableName))) VALUES ('rebuild')")
        }
    }
}

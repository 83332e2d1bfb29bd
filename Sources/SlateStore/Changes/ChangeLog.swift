import Foundation

/// The store-wide revision counter and the tombstones of deleted rows.
enum ChangeLog {
    static func currentRevision(_ database: Database) throws -> Int {
        guard case .integer(let value) = try database.scalar("SELECT value FROM _slate_meta WHERE key = 'revision'") else {
            return 0
        }
        return Int(value)
    }

    /// Starts a write: bumps and returns the revision every row written in it gets.
    static func nextRevision(_ database: Database) throws -> Int {
        guard case .integer(let value) = try database.scalar(
            "UPDATE _slate_meta SET value = value + 1 WHERE key = 'revision' RETURNING value")
        else { throw StoreError.invalidSchema("the revision counter is missing from _slate_meta") }
        return Int(value)
    }

    static func recordDeletion(table: String, id: String, partition: String?, revision: Int, in database: Database) throws {
        try database.execute(
            "INSERT INTO _slate_tombstones(table_name, id, revision, partition) VALUES (?, ?, ?, ?) ON CONFLICT(table_name, id) DO UPDATE SET revision = excluded.revision, partition = excluded.partition",
            [.text(table), .text(id), .integer(Int64(revision)), partition.map(DatabaseValue.text) ?? .null])
    }

    static func forgetDeletion(table: String, id: String, in database: Database) throws {
        try database.execute("DELETE FROM _slate_tombstones WHERE table_name = ? AND id = ?", [.text(table), .text(id)])
    }

    /// Ids deleted from `table` after `revision`, of one partition when given.
    static func deletedIDs(table: String, since revision: Int, partition: DatabaseValue? = nil, in database: Database) throws -> [UUID] {
        let filter = partition == nil ? "" : " AND partition = ?"
        return try database.rows(
            "SELECT id FROM _slate_tombstones WHERE table_name = ? AND revision > ?\(filter) ORDER BY revision, id",
            [.text(table), .integer(Int64(revision))] + (partition.map { [$0] } ?? [])
        ).compactMap { UUID.fromDatabaseValue($0["id"]) }
    }

    /// A commit describing everything changed after `since`, for changes made by other processes.
    /// Rows are reported as updated: without history we cannot tell a new row from a changed one.
    /// Revisions in `excluding` were this process's own commits, already reported. The
    /// commit's revision is the newest of the other processes' revisions it covers, never
    /// one of ours: each commit, ours or theirs, is reported under a revision of its own.
    static func commitSummary(
        since: Int, excluding: Set<Int>, revision: Int, tables: [TableSchema], in database: Database
    ) throws -> Commit {
        var changes: [String: TableChanges] = [:]
        // The skipped revisions are bound as one JSON array, so the SQL text is the same on
        // every call: pasting them in made a new cached statement per call (a leak of about
        // 1 KiB per commit in `slate serve`, whose watcher calls this every 50 ms).
        let skipped: DatabaseValue = .text("[" + excluding.sorted().map(String.init).joined(separator: ",") + "]")
        var partitions: Set<String> = []
        // Without a row to show for it (a commit whose rows were changed again since), the
        // look still reached `revision`; `since` + 1 is the first revision it covered.
        var newest = since + 1
        for table in tables {
            var tableChanges = TableChanges()
            let partitionSQL = table.partitionName.map { ", " + quote($0) } ?? ", NULL"
            let rows = try database.rows(
                "SELECT id, _rev AS revision\(partitionSQL) AS partition FROM \(quote(table.tableName)) WHERE _rev > ? AND _rev NOT IN (SELECT value FROM json_each(?))",
                [.integer(Int64(since)), skipped])
            tableChanges.updated = Set(rows.compactMap { UUID.fromDatabaseValue($0["id"]) })
            let tombstones = try database.rows(
                "SELECT id, revision, partition FROM _slate_tombstones WHERE table_name = ? AND revision > ? AND revision NOT IN (SELECT value FROM json_each(?))",
                [.text(table.tableName), .integer(Int64(since)), skipped])
            tableChanges.deleted = Set(tombstones.compactMap { UUID.fromDatabaseValue($0["id"]) })
            for row in rows + tombstones {
                if case .text(let value) = row["partition"] { partitions.insert(value) }
                if let rowRevision = Int.fromDatabaseValue(row["revision"]) { newest = max(newest, rowRevision) }
            }
            if !tableChanges.isEmpty { changes[table.tableName] = tableChanges }
        }
        return Commit(revision: min(newest, revision), origin: .external, tables: changes, partitions: partitions)
    }
}

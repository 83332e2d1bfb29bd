import Foundation

/// The revision counters, the commit log and the tombstones of deleted rows.
///
/// Two kinds of number:
/// - the **store sequence** (`_slate_meta.revision`): one per commit, store-wide. It orders
///   commits for this process's watcher of other processes' writes and for caches; it
///   stamps rows that belong to no partition. Never handed to a partition's readers.
/// - a **partition revision** (`_slate_revisions`, one counter row per partition, such as an
///   account): taken inside the write transaction the first time it touches a row of that
///   partition, and stamped on every row and tombstone of the partition that it writes.
///   Because the counter row is updated in the transaction, writers of one partition are
///   serialised on it, so revision order is commit order within a partition (what a sync
///   token needs; a database sequence would not give that). One partition's writes never
///   move another's numbers.
///
/// The commit log (`_slate_commits`) maps each store sequence to the partition revisions
/// it took, so that a summary of other processes' commits, or a change feed across every
/// partition, finds their rows. It keeps the last `commitLogLength` commits.
enum ChangeLog {
    /// How many recent commits the commit log keeps.
    static let commitLogLength = 10_000

    /// The store sequence of the last commit (0 for a new store).
    static func currentRevision(_ database: Database) throws -> Int {
        let postgreSQL = database as? PostgreSQLDatabase
        // A PostgreSQL write transaction that holds the sequence's row knows it (no read);
        // one that read it by its last statement may answer with that read.
        if let held = postgreSQL?.sequenceHeld ?? postgreSQL?.sequenceReadJustBefore { return held }
        guard case .integer(let value) = try database.scalar("SELECT value FROM _slate_meta WHERE key = 'revision'") else {
            return 0
        }
        postgreSQL?.noteSequenceRead(Int(value))
        return Int(value)
    }

    /// What `currentRevision(partition:in:)` asks for a partition (`ExpectedRead.currentRevision`).
    static let partitionRevisionSQL =
        "SELECT coalesce((SELECT value FROM _slate_revisions WHERE partition = ?), (SELECT value FROM _slate_meta WHERE key = 'revision_floor'), 0)"

    /// The revision of `partition` (the store sequence for nil): that of its last change,
    /// or the number every partition started from when the file was upgraded to
    /// per-partition revisions (0 for a file created with them).
    static func currentRevision(partition: String?, in database: Database) throws -> Int {
        guard let partition else { return try currentRevision(database) }
        let value = try database.scalar(partitionRevisionSQL, [.text(partition)])
        guard case .integer(let revision)? = value else { return 0 }
        return Int(revision)
    }

    /// Starts a write: bumps and returns the store sequence of this commit. Now and then
    /// it also trims the commit log to its last `commitLogLength` commits.
    ///
    /// On PostgreSQL, taking this row first is what runs every node's writers one at a
    /// time; the write announces its sequence to other processes when it is done
    /// (`announce(sequence:changes:in:)`).
    static func nextRevision(_ database: Database) throws -> Int {
        try nextRevision(database, takingRevisionOf: nil).sequence
    }

    /// `nextRevision(_:)`, and on PostgreSQL, for `partition`, that partition's next revision
    /// in the same statement (one round trip fewer). Not yet in the commit log: record it with
    /// `recordInCommitLog` once the commit stamps a row of the partition (`WriteSession`).
    static func nextRevision(_ database: Database, takingRevisionOf partition: String?) throws -> (sequence: Int, partitionRevision: Int?) {
        let postgreSQL = database as? PostgreSQLDatabase
        let value: Int64
        var partitionRevision: Int?
        if let postgreSQL, let partition {
            let row = try postgreSQL.rows(sequenceWithPartitionSQL, [.text(partition)]).first
            guard case .integer(let sequence)? = row?["sequence"], case .integer(let revision)? = row?["revision"]
            else { throw StoreError.invalidSchema("the revision counter is missing from _slate_meta") }
            (value, partitionRevision) = (sequence, Int(revision))
        } else {
            guard case .integer(let sequence) = try database.scalar(
                "UPDATE _slate_meta SET value = value + 1 WHERE key = 'revision' RETURNING value")
            else { throw StoreError.invalidSchema("the revision counter is missing from _slate_meta") }
            value = sequence
        }
        postgreSQL?.noteSequenceTaken(Int(value))
        if value % 1_000 == 0 {
            let floor = DatabaseValue.integer(value - Int64(commitLogLength))
            try database.execute("DELETE FROM _slate_commits WHERE seq <= ?", [floor])
            try database.execute(
                "UPDATE _slate_meta SET value = \(database.dialect.greatest("value", "?")) WHERE key = 'commit_log_floor'", [floor])
        }
        return (Int(value), partitionRevision)
    }

    /// Tells the store's other processes on PostgreSQL that the write holding store
    /// sequence `sequence` commits, and, when it fits, what it changed (`CommitAnnouncement`):
    /// a `pg_notify` inside the transaction, delivered at COMMIT, dropped if it rolls back,
    /// sent with its next round trip. Call it once per sequence taken, when the writing is
    /// done. Nothing on SQLite.
    static func announce(sequence: Int, changes: Commit?, in database: Database) throws {
        guard let database = database as? PostgreSQLDatabase else { return }
        let payload = changes.flatMap { $0.revision == sequence ? CommitAnnouncement.payload(for: $0) : nil } ?? String(sequence)
        try database.executeWithoutWaiting("SELECT pg_notify(\(PostgreSQLListener.channelSQL()), ?)", [.text(payload)])
    }

    /// The store sequence and a partition's revision taken in one statement (PostgreSQL):
    /// the partition's counter is updated from the sequence's row, so it is always taken
    /// second, under the sequence's lock, as when they are two statements.
    static let sequenceWithPartitionSQL = """
        WITH s AS (UPDATE _slate_meta SET value = value + 1 WHERE key = 'revision' RETURNING value), \
        p AS (INSERT INTO _slate_revisions(partition, value) \
        SELECT ?, coalesce((SELECT value FROM _slate_meta WHERE key = 'revision_floor'), 0) + 1 FROM s \
        ON CONFLICT(partition) DO UPDATE SET value = _slate_revisions.value + 1 RETURNING value) \
        SELECT s.value AS sequence, p.value AS revision FROM s, p
        """

    /// Takes the next revision of `partition` for the commit with store sequence `sequence`
    /// and records the pair in the commit log. Call once per partition and commit.
    static func nextRevision(partition: String, sequence: Int, in database: Database) throws -> Int {
        // PostgreSQL wants the table's own `value` named in the update (it has `excluded.value` too).
        let current = database.dialect == .postgreSQL ? "_slate_revisions.value" : "value"
        guard case .integer(let value) = try database.scalar(
            """
            INSERT INTO _slate_revisions(partition, value) \
            VALUES (?, coalesce((SELECT value FROM _slate_meta WHERE key = 'revision_floor'), 0) + 1) \
            ON CONFLICT(partition) DO UPDATE SET value = \(current) + 1 RETURNING value
            """, [.text(partition)])
        else { throw StoreError.invalidSchema("the revision counter of a partition could not be taken") }
        try recordInCommitLog(sequence: sequence, partition: partition, revision: value, in: database)
        return Int(value)
    }

    /// Records that the commit with store sequence `sequence` took `revision` of `partition`.
    static func recordInCommitLog(sequence: Int, partition: String, revision: Int64, in database: Database) throws {
        try database.executeWithoutWaiting(
            "INSERT INTO _slate_commits(seq, partition, revision) VALUES (?, ?, ?)",
            [.integer(Int64(sequence)), .text(partition), .integer(revision)])
    }

    /// The store sequence after which the commit log is complete.
    static func commitLogFloor(_ database: Database) throws -> Int {
        guard case .integer(let value)? = try database.scalar("SELECT value FROM _slate_meta WHERE key = 'commit_log_floor'") else {
            return 0
        }
        return Int(value)
    }

    /// The partition revisions that the commits after store sequence `since` took (skipping
    /// the sequences in `excluding`), per partition, oldest first.
    static func partitionRevisions(since: Int, excluding: Set<Int> = [], in database: Database) throws -> [String: [Int]] {
        let skipped = database.dialect.boundIntegers(excluding.sorted())
        var revisions: [String: [Int]] = [:]
        for row in try database.rows(
            "SELECT partition, revision FROM _slate_commits WHERE seq > ? AND seq \(database.dialect.notInBoundIntegers) ORDER BY seq",
            [.integer(Int64(since)), skipped]) {
            guard case .text(let partition) = row["partition"], let revision = Int.fromDatabaseValue(row["revision"]) else { continue }
            revisions[partition, default: []].append(revision)
        }
        return revisions
    }

    static func recordDeletion(table: String, id: String, partition: String?, revision: Int, in database: Database) throws {
        try database.executeWithoutWaiting(
            "INSERT INTO _slate_tombstones(table_name, id, revision, partition) VALUES (?, ?, ?, ?) ON CONFLICT(table_name, id) DO UPDATE SET revision = excluded.revision, partition = excluded.partition",
            [.text(table), .text(id), .integer(Int64(revision)), partition.map(DatabaseValue.text) ?? .null])
    }

    /// Records that row `id` left group `group` (nil: the row had no group) at `revision`.
    static func recordDeparture(table: String, id: String, partition: String?, group: DatabaseValue, revision: Int,
                                in database: Database) throws {
        try database.executeWithoutWaiting(
            "INSERT INTO _slate_departures(table_name, id, partition, group_value, revision) VALUES (?, ?, ?, ?, ?)",
            [.text(table), .text(id), partition.map(DatabaseValue.text) ?? .null, group, .integer(Int64(revision))])
    }

    /// Deletes the departures of `partition` from `tables` at `revision` or before: what
    /// no reader can still ask for (see `ModelConfiguration.departureHistory`). One indexed
    /// range per table (`_slate_departures_by_partition`).
    static func pruneDepartures(tables: [String], partition: String, through revision: Int, in database: Database) throws {
        for table in tables {
            try database.executeWithoutWaiting(
                "DELETE FROM _slate_departures WHERE table_name = ? AND partition = ? AND revision <= ?",
                [.text(table), .text(partition), .integer(Int64(revision))])
        }
    }

    /// The departures of rows of `table` in `partition` after `revision` (and at most
    /// `through`), oldest first: each row id with the group it left and when.
    static func departures(table: String, since revision: Int, through: Int?, partition: DatabaseValue,
                           in database: Database) throws -> [Departure] {
        try database.rows(
            "SELECT id, group_value, revision FROM _slate_departures WHERE table_name = ? AND partition = ? AND revision > ? AND revision <= ? ORDER BY revision, seq",
            [.text(table), partition, .integer(Int64(revision)), .integer(through.map(Int64.init) ?? Int64.max)]
        ).compactMap { row in
            UUID.fromDatabaseValue(row["id"]).map {
                Departure(id: $0, group: UUID.fromDatabaseValue(row["group_value"]), revision: Int.fromDatabaseValue(row["revision"]) ?? 0)
            }
        }
    }

    static func forgetDeletion(table: String, id: String, in database: Database) throws {
        try database.executeWithoutWaiting("DELETE FROM _slate_tombstones WHERE table_name = ? AND id = ?", [.text(table), .text(id)])
    }

    /// Ids deleted from `table` after `revision`, of one partition when given.
    static func deletedIDs(table: String, since revision: Int, partition: DatabaseValue? = nil, in database: Database) throws -> [UUID] {
        let filter = partition == nil ? "" : " AND partition = ?"
        return try database.rows(
            "SELECT id FROM _slate_tombstones WHERE table_name = ? AND revision > ?\(filter) ORDER BY revision, id",
            [.text(table), .integer(Int64(revision))] + (partition.map { [$0] } ?? [])
        ).compactMap { UUID.fromDatabaseValue($0["id"]) }
    }

    /// A commit describing everything changed after store sequence `since`, for changes
    /// made by other processes. Rows are reported as updated: without history we cannot
    /// tell a new row from a changed one. Sequences in `excluding` were this process's own
    /// commits, already reported. The commit's sequence is the newest of the other
    /// processes' it covers, never one of ours, and its revision in each partition the
    /// newest of theirs there: each commit, ours or theirs, is reported under numbers of
    /// its own. A look further back than the commit log reaches is a `.resync`.
    static func commitSummary(
        since: Int, excluding: Set<Int>, revision: Int, tables: [TableSchema], in database: Database
    ) throws -> Commit {
        var newest = revision
        while newest > since + 1, excluding.contains(newest) { newest -= 1 }
        guard try commitLogFloor(database) <= since else {
            return Commit(revision: newest, origin: .resync, tables: [:])
        }
        // The skipped sequences are bound as one list, so the SQL text is the same on every
        // call: pasting them in made a new cached statement per call (a leak of about 1 KiB
        // per commit in `slate serve`, whose watcher calls this every 50 ms).
        let skipped = database.dialect.boundIntegers(excluding.sorted())
        let theirs = try partitionRevisions(since: since, excluding: excluding, in: database)
        var changes: [String: TableChanges] = [:]
        var partitions: Set<String> = []
        for table in tables {
            var rows: [Row] = []
            var tombstones: [Row] = []
            let unpartitioned = table.partitionName.map { "\(quote($0)) IS NULL AND " } ?? ""
            rows += try database.rows(
                "SELECT id FROM \(quote(table.tableName)) WHERE \(unpartitioned)_rev > ? AND _rev \(database.dialect.notInBoundIntegers)",
                [.integer(Int64(since)), skipped])
            tombstones += try database.rows(
                "SELECT id, partition FROM _slate_tombstones WHERE table_name = ? AND partition IS NULL AND revision > ? AND revision \(database.dialect.notInBoundIntegers)",
                [.text(table.tableName), .integer(Int64(since)), skipped])
            if let partitionName = table.partitionName {
                for (partition, revisions) in theirs.sorted(by: { $0.key < $1.key }) {
                    let list = database.dialect.boundIntegers(revisions)
                    let found = try database.rows(
                        "SELECT id FROM \(quote(table.tableName)) WHERE \(quote(partitionName)) = ? AND _rev \(database.dialect.inBoundIntegers)",
                        [.text(partition), list])
                    let gone = try database.rows(
                        "SELECT id FROM _slate_tombstones WHERE table_name = ? AND partition = ? AND revision \(database.dialect.inBoundIntegers)",
                        [.text(table.tableName), .text(partition), list])
                    if !found.isEmpty || !gone.isEmpty { partitions.insert(partition) }
                    rows += found
                    tombstones += gone
                }
            }
            var tableChanges = TableChanges()
            tableChanges.updated = Set(rows.compactMap { UUID.fromDatabaseValue($0["id"]) })
            tableChanges.deleted = Set(tombstones.compactMap { UUID.fromDatabaseValue($0["id"]) })
            if !tableChanges.isEmpty { changes[table.tableName] = tableChanges }
        }
        let revisions = theirs.filter { partitions.contains($0.key) }.compactMapValues(\.last)
        return Commit(revision: newest, origin: .external, tables: changes, partitions: partitions, revisions: revisions)
    }
}

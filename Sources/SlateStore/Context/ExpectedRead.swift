import Foundation

/// A read that a snapshot is known to make, named before it begins, so that a backend with
/// round trips can send it with the snapshot's first statement: on PostgreSQL it travels in
/// the same pipeline and its answer waits on the connection until the read is made (or the
/// snapshot ends unused). SQLite reads in-process and ignores it.
///
/// Only for reads that cannot fail once prepared (a lookup by key): one that failed while
/// running would leave the rest of the snapshot's statements refused. One that cannot be
/// prepared is not sent ahead; it reports itself when made.
///
/// ```swift
/// try container.snapshot(expecting: [.revision(of: TaskItem.self, id: id)]) {
///     try ModelContext(container).revision(of: TaskItem.self, id: id)   // answered already
/// }
/// ```
public struct ExpectedRead: Sendable, Hashable {
    let sql: String
    let arguments: [DatabaseValue]

    /// The `Model` with `id` and its revision, as `ModelContext.revisioned(_:id:)` reads it.
    public static func revisioned<Model: PersistentModel>(_ type: Model.Type, id: UUID) -> ExpectedRead {
        ExpectedRead(sql: ModelContext.revisionedByIDSQL(type), arguments: [id.databaseValue])
    }

    /// The children counts `ModelContext.countChildren` reads with the same arguments (nil
    /// when a key path names no column, which that read reports when made).
    public static func childCounts<Model: PersistentModel>(
        _ type: Model.Type, by keyPath: KeyPath<Model, UUID?>, among values: [UUID], partition: some DatabaseValueConvertible,
        unset flag: KeyPath<Model, Bool>, dialect: SQLDialect
    ) -> ExpectedRead? {
        guard !values.isEmpty, let sql = try? ModelContext.countChildrenSQL(type, by: keyPath, count: values.count, unset: flag, dialect: dialect)
        else { return nil }
        return ExpectedRead(sql: sql, arguments: [partition.databaseValue] + values.map(\.databaseValue))
    }

    /// The revision of a partition (an account), as `ModelContainer.currentRevision(partition:)` reads it.
    public static func currentRevision(partition: some DatabaseValueConvertible) -> ExpectedRead {
        ExpectedRead(sql: ChangeLog.partitionRevisionSQL, arguments: [.text(UndoLog.scope(partition) ?? "")])
    }

    /// The revision of the `Model` row with `id`, as `ModelContext.revision(of:id:)` reads it.
    public static func revision<Model: PersistentModel>(of type: Model.Type, id: UUID) -> ExpectedRead {
        // The text is kept per model: built again for every read, it cost a single task's GET
        // (which reads it twice) about 9,000 instructions.
        let sql = StatementTexts.shared.text(for: StatementTexts.Key(Model.self, .sqlite, "revisionByOneID", columns: [], count: 1)) {
            "SELECT t.\"_rev\" FROM \(quote(Model.schema.tableName)) AS t WHERE t.\"id\" = ?"
        }
        return ExpectedRead(sql: sql, arguments: [id.databaseValue])
    }
}

extension ModelContainer {
    /// Runs `body` with every read inside it served from one snapshot, as `snapshot(_:)`,
    /// telling the store which reads `body` will make (`ExpectedRead`): on PostgreSQL they
    /// go out with the snapshot's first statement instead of a round trip each.
    ///
    /// `usuallyNothingElse`: `body` usually reads nothing but its first statement and
    /// `reads` (a GET of one task whose record is kept by revision). On PostgreSQL the
    /// snapshot then ends in that first round trip; should `body` read more, it runs again
    /// from the start in a snapshot that stays open, so it must be repeatable (a read is).
    public func snapshot<T>(expecting reads: [ExpectedRead], usuallyNothingElse: Bool = false, _ body: () throws -> T) throws -> T {
        try pool.snapshot(expecting: reads, usuallyNothingElse: usuallyNothingElse, body)
    }

    /// Inside a snapshot: `reads` are made after the next statement, which is often the
    /// last that needs the database (a page of ids, then the account's revision); on
    /// PostgreSQL they go out in its pipeline, and with `thenUsuallyNothingElse` the
    /// snapshot ends there too (see `snapshot(expecting:usuallyNothingElse:_:)`: a read after
    /// that runs the snapshot's body again). Nothing outside a snapshot, or on SQLite.
    public func expectInSnapshot(_ reads: [ExpectedRead], thenUsuallyNothingElse: Bool = false) {
        pool.expectInSnapshot(reads, thenUsuallyNothingElse: thenUsuallyNothingElse)
    }

    /// Inside a group write (`writeTogether`) on this thread: `reads` are made right after
    /// the write's next statement that waits for an answer (often its change stamp, before
    /// any change): on PostgreSQL they go out in its pipeline, and each answer is served if
    /// asked for before the write runs any other statement, else dropped and read again.
    /// Nothing outside a group write, or on SQLite.
    ///
    /// A read named here runs before the write takes the store sequence, as it would have
    /// run there anyway; what must be read under that lock (a save's images) is read there.
    public func expectInWrite(_ reads: [ExpectedRead]) {
        pool.expectInWrite(reads)
    }
}

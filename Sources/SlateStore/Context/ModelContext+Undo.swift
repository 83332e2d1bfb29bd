import Foundation

extension ModelContext {
    // Each method takes the partition whose history to use (an account id): a commit that
    // touched one partition's rows only is recorded in that partition's history.

    /// True when there is a saved change to undo.
    public func canUndo(in partition: (any DatabaseValueConvertible)? = nil) throws -> Bool {
        try container.pool.read { try UndoLog.peek(.undo, partition: UndoLog.scope(partition), in: $0).exists }
    }

    /// True when there is an undone change to redo.
    public func canRedo(in partition: (any DatabaseValueConvertible)? = nil) throws -> Bool {
        try container.pool.read { try UndoLog.peek(.redo, partition: UndoLog.scope(partition), in: $0).exists }
    }

    /// The label given to `save(undoLabel:)` for the change `undo()` would revert.
    public func undoLabel(in partition: (any DatabaseValueConvertible)? = nil) throws -> String? {
        try container.pool.read { try UndoLog.peek(.undo, partition: UndoLog.scope(partition), in: $0).label }
    }

    /// The label of the change `redo()` would re-apply.
    public func redoLabel(in partition: (any DatabaseValueConvertible)? = nil) throws -> String? {
        try container.pool.read { try UndoLog.peek(.redo, partition: UndoLog.scope(partition), in: $0).label }
    }

    /// Reverts the most recent recorded save (or redo), restoring every row it touched,
    /// cascades included, to its exact prior values. Returns the commit, or nil when
    /// there is nothing to undo.
    ///
    /// Throws `.conflict` (and changes nothing) if a row was changed since by a write
    /// that was not recorded for undo.
    @discardableResult
    public func undo(in partition: (any DatabaseValueConvertible)? = nil) throws -> (commit: Commit, label: String?)? {
        try replay(from: .undo, to: .redo, origin: .undo, partition: UndoLog.scope(partition))
    }

    /// Reverts the change committed at `revision` (a save or a redo; in a partition's
    /// history, its revision there, `Commit.revision(in:)`), even when other
    /// changes came after it, as long as none of them touched the same rows since. Returns
    /// the undo's commit, or nil when no such change is in the history (never recorded,
    /// already undone, or pushed out by the undo limit).
    ///
    /// Throws `.conflict` (and changes nothing) when a later change touched one of its rows.
    @discardableResult
    public func undo(revision: Int, in partition: (any DatabaseValueConvertible)? = nil) throws -> (commit: Commit, label: String?)? {
        try replay(from: .undo, to: .redo, origin: .undo, partition: UndoLog.scope(partition), revision: revision)
    }

    /// Re-applies the most recently undone change. Returns nil when there is nothing to redo.
    @discardableResult
    public func redo(in partition: (any DatabaseValueConvertible)? = nil) throws -> (commit: Commit, label: String?)? {
        try replay(from: .redo, to: .undo, origin: .redo, partition: UndoLog.scope(partition))
    }

    private func replay(from source: UndoLog.Stack, to destination: UndoLog.Stack, origin: Commit.Origin,
                        partition: String?, revision: Int? = nil) throws -> (commit: Commit, label: String?)? {
        let tables = container.tables
        let limit = container.configuration.undoLimit
        let notifier = container.notifier
        let departureHistory = container.configuration.departureHistory
        let result: (Commit, String?)
        do {
            result = try container.pool.write { database in
                try notifier.transaction(in: database, announcing: { $0.0 }) { nextRevision -> (Commit, String?) in
                    // The store sequence first, as every save takes it. Popped first, the entry's row
                    // was held while waiting for the sequence, which a save of the same account on
                    // another node holds while it waits to clear that stack: a deadlock on PostgreSQL.
                    let sequence = try nextRevision(nil).sequence
                    let popped: UndoLog.Entry?
                    if let revision {
                        popped = try UndoLog.pop(source, revision: revision, partition: partition, in: database)
                    } else {
                        popped = try UndoLog.pop(source, partition: partition, in: database)
                    }
                    // Nothing to replay: the sequence taken goes back with the rollback.
                    guard let entry = popped else { throw NothingToReplay() }
                    let session = WriteSession(database: database, tables: tables, revision: sequence, recordsImages: false)
                    session.departureHistory = departureHistory
                    if source == .undo {
                        for image in entry.images.reversed() {
                            try session.restore(image, expected: image.after, target: image.before)
                        }
                        if let created = entry.created, let revision = entry.createdRevision {
                            try database.withBulkPageCache {
                                for (table, ids) in created.sorted(by: { $0.key > $1.key }) {
                                    let digests = entry.createdDigests?[table]?.split(separator: ",").map(String.init) ?? []
                                    try session.deleteCreated(table: table, ids: ids.split(separator: ",").map(String.init),
                                                              digests: digests, revision: revision)
                                }
                                try session.applyDerivedChanges()
                            }
                            // Rows recorded by id cannot be put back: nothing goes onto the redo stack.
                            return (session.commit(origin: origin), entry.label)
                        }
                    } else {
                        for image in entry.images {
                            try session.restore(image, expected: image.before, target: image.after)
                        }
                    }
                    try session.applyDerivedChanges()
                    let revision = partition.flatMap { session.revisions[$0] } ?? session.revision
                    try UndoLog.push(entry, onto: destination, partition: partition, revision: revision, limit: limit, in: database)
                    return (session.commit(origin: origin), entry.label)
                }
            }
        } catch is NothingToReplay {
            return nil
        }
        container.notifier.publish(result.0)
        return result
    }
}

/// An undo or redo found its stack empty (its transaction is rolled back).
private struct NothingToReplay: Error {}

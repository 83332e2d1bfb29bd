import Foundation

extension ModelContainer {
    /// True on the thread of a group transaction of this store (`writeTogether`): what is
    /// read there may not be committed yet, so nothing read there may be kept by revision.
    public var isInsideGroupCommit: Bool { pool.isInsideGroup }

    /// Runs `changes` one after another inside one write transaction and commits them
    /// together, with one sync to disk for all of them (group commit): what lets many
    /// concurrent durable writes share the cost of one fsync.
    ///
    /// Each change runs in a savepoint of its own, so one that throws — or that leaves a
    /// dangling reference — is rolled back alone while the others still commit. Each sees
    /// what the changes before it wrote (every read and write inside uses the writer
    /// connection), so a revision it checks is the current one. Their commits reach
    /// `commits()` subscribers in order, and only once the transaction is durable.
    ///
    /// ```swift
    /// let outcomes = container.writeTogether([{ try first.save() }, { try second.save() }])
    /// // [nil, nil]: both durable, one COMMIT
    /// ```
    ///
    /// Returns, for each change, nil when it was committed, else why not: its own error, or
    /// the transaction's when beginning or committing it failed (then nothing was written).
    public func writeTogether(_ changes: [() throws -> Void]) -> [(any Error)?] {
        var outcomes = [(any Error)?](repeating: nil, count: changes.count)
        guard !changes.isEmpty else { return outcomes }
        let group = CommitGroup(notifier: notifier)
        do {
            try pool.group { database in
                try CommitNotifier.$group.withValue(group) {
                    try database.transaction {
                        // Alone, a change needs no savepoint: its failure is the transaction's.
                        if changes.count == 1 { return try changes[0]() }
                        for (index, change) in changes.enumerated() {
                            let mark = group.count
                            do {
                                try database.transaction {
                                    try change()
                                    try database.checkDeferredForeignKeys()
                                }
                            } catch {
                                outcomes[index] = error
                                notifier.release(group.drop(after: mark))
                            }
                        }
                    }
                }
            }
        } catch {
            notifier.release(group.commits)
            return outcomes.map { $0 ?? error }
        }
        for commit in group.commits { notifier.publish(commit) }
        return outcomes
    }
}

import Foundation

/// What a commit on PostgreSQL tells the other processes of the store, as the text of a
/// `pg_notify` delivered at COMMIT (`ChangeLog.announce`): its store sequence and, when they
/// fit, the rows it touched and the revisions it took. A process that has heard every
/// sequence since it last looked, each with its changes, publishes them without reading
/// the commit log (`ModelContainer.publishAnnouncedChanges`); one missing, or heard with its
/// sequence only (a commit too large to say, a migration's restamp), sends it to the log.
///
/// The text, one item a line: the sequence; `T` and a table name, then that table's rows as
/// `I` (inserted), `U` (updated) or `D` (deleted) and the id; `P` and a partition value, a
/// tab and the revision the commit took in it. A commit whose text would pass
/// `payloadLimit` (PostgreSQL refuses 8,000 bytes), or whose table or partition names hold a
/// line break, a carriage return or a tab, is not detailed.
struct CommitAnnouncement: Sendable, Equatable {
    /// The store sequence the commit took.
    let sequence: Int
    /// What it changed; nil when only the sequence was said.
    let changes: Commit?

    /// The longest announcement sent: under PostgreSQL's 8,000 bytes, with room to spare.
    static let payloadLimit = 7_000

    /// The text announcing `commit`, or nil when it is too long or cannot be said.
    static func payload(for commit: Commit) -> String? {
        // A row's line is 38 bytes: a commit with more rows than fit is not detailed, and its
        // text is never built (an import's).
        let rows = commit.tables.values.reduce(0) { $0 + $1.inserted.count + $1.updated.count + $1.deleted.count }
        guard rows * 38 <= payloadLimit else { return nil }
        var text = String(commit.revision)
        text.reserveCapacity(256)
        for (table, changes) in commit.tables.sorted(by: { $0.key < $1.key }) where !changes.isEmpty {
            guard isPlain(table) else { return nil }
            text += "\nT" + table
            for (mark, ids) in [("I", changes.inserted), ("U", changes.updated), ("D", changes.deleted)] {
                for id in ids { text += "\n" + mark + id.uuidString }
            }
            if text.utf8.count > payloadLimit { return nil }
        }
        for partition in commit.partitions.sorted() {
            guard isPlain(partition) else { return nil }
            text += "\nP" + partition + "\t" + (commit.revisions[partition].map(String.init) ?? "")
        }
        return text.utf8.count <= payloadLimit ? text : nil
    }

    /// Reads an announcement's text; nil for text that is not one (nothing is assumed from it).
    init?(payload: String) {
        var lines = payload.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst(), let sequence = Int(first), sequence > 0 else { return nil }
        self.sequence = sequence
        guard !lines.isEmpty else {
            changes = nil
            return
        }
        var tables: [String: TableChanges] = [:]
        var partitions: Set<String> = []
        var revisions: [String: Int] = [:]
        var table: String?
        for line in lines {
            guard let mark = line.first else { return nil }
            let rest = String(line.dropFirst())
            switch mark {
            case "T":
                guard !rest.isEmpty else { return nil }
                table = rest
            case "I", "U", "D":
                guard let table, let id = UUID(uuidString: rest) else { return nil }
                var changes = tables[table] ?? TableChanges()
                switch mark {
                case "I": changes.inserted.insert(id)
                case "U": changes.updated.insert(id)
                default: changes.deleted.insert(id)
                }
                tables[table] = changes
            case "P":
                let parts = rest.split(separator: "\t", omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty else { return nil }
                partitions.insert(String(parts[0]))
                if !parts[1].isEmpty {
                    guard let revision = Int(parts[1]) else { return nil }
                    revisions[String(parts[0])] = revision
                }
            default:
                return nil
            }
        }
        changes = Commit(
            revision: sequence, origin: .external, tables: tables, partitions: partitions,
            revisions: revisions)
    }

    private static func isPlain(_ name: String) -> Bool {
        !name.isEmpty
            && !name.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") })
    }

    /// The commits of other processes in `(since, through]`, skipping `own`, summed up as
    /// one external commit, as `ChangeLog.commitSummary` reads them from the log: every row
    /// that exists after them as updated, every row they removed as deleted, only tables in
    /// `known`, and no row this process wrote after `since` (`ownTouched`, and what its own
    /// announcements in the window say): the log reports a row under its last writer. Nil
    /// when a sequence of the window was not heard with its changes (an own one not heard
    /// yet is covered by `ownTouched` once reported).
    static func summary(
        of heard: [Int: CommitAnnouncement], since: Int, through: Int, excluding own: Set<Int>,
        ownTouched: [String: Set<UUID>], known: Set<String>
    ) -> Commit? {
        guard through > since else { return nil }
        var tables: [String: TableChanges] = [:]
        var partitions: Set<String> = []
        var revisions: [String: Int] = [:]
        var ours = ownTouched
        for sequence in (since + 1)...through {
            if own.contains(sequence) {
                guard let announcement = heard[sequence] else { continue }
                guard let commit = announcement.changes else { return nil }
                for (table, changes) in commit.tables {
                    ours[table, default: []].formUnion(changes.inserted.union(changes.updated).union(changes.deleted))
                }
                continue
            }
            guard let commit = heard[sequence]?.changes else { return nil }
            var touched = false
            for (table, changes) in commit.tables where known.contains(table) {
                var summed = tables[table] ?? TableChanges()
                // Removed first: a row removed and made again within one commit exists.
                for id in changes.deleted {
                    summed.deleted.insert(id)
                    summed.updated.remove(id)
                }
                for id in changes.inserted.union(changes.updated) {
                    summed.updated.insert(id)
                    summed.deleted.remove(id)
                }
                tables[table] = summed
                touched = true
            }
            guard touched else { continue }
            partitions.formUnion(commit.partitions)
            for (partition, revision) in commit.revisions {
                revisions[partition] = max(revisions[partition] ?? 0, revision)
            }
        }
        for (table, ids) in ours where tables[table] != nil {
            tables[table]!.updated.subtract(ids)
            tables[table]!.deleted.subtract(ids)
        }
        tables = tables.filter { !$0.value.isEmpty }
        // The log's summary names the last sequence that is not this process's own.
        var revision = through
        while revision > since + 1, own.contains(revision) { revision -= 1 }
        return Commit(
            revision: revision, origin: .external, tables: tables,
            partitions: tables.isEmpty ? [] : partitions, revisions: tables.isEmpty ? [:] : revisions)
    }
}

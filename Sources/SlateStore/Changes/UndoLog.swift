import Foundation

/// The persisted undo and redo stacks: each entry is the row images of one commit.
///
/// They live in the database file (table `_slate_undo`), so `undo` works across
/// processes: a command-line tool can undo what its previous run did. A commit that
/// touched rows of one partition only (one account) goes into that partition's history,
/// so one account's undo never reverts another's change.
enum UndoLog {
    struct Entry: Codable {
        /// What the user did, as the app named it ("Complete “Buy milk”").
        let label: String?
        let images: [RowImage]
        /// Rows a bulk commit inserted, by table, recorded by id only (nil for other commits):
        /// the ids joined with commas, one string per table (an array of 50,000 strings
        /// cost the encoder several times more). Undo deletes them; it cannot be redone.
        var created: [String: String]? = nil
        /// The digest of each row in `created` as the commit left it (`RowDigest`, 16 hex
        /// digits), joined the same way: undo deletes a row changed since only if it holds
        /// that again (an edit that was undone).
        var createdDigests: [String: String]? = nil
        /// The revision of the commit that inserted `created` (in the entry's partition).
        var createdRevision: Int? = nil
    }

    enum Stack: String {
        case undo, redo
    }

    static func push(_ entry: Entry, onto stack: Stack, partition: String?, revision: Int, limit: Int, in database: Database) throws {
        let payload = try entry.encodedJSON()
        let scope = partition.map(DatabaseValue.text) ?? .null
        try database.executeWithoutWaiting(
            "INSERT INTO _slate_undo(stack, revision, payload, partition) VALUES (?, ?, ?, ?)",
            [.text(stack.rawValue), .integer(Int64(revision)), .blob(payload), scope])
        // The newest `limit` stay; the entries past them, found from the newest down, go by
        // their keys (usually one: the push made the stack one too long). Not "every entry at
        // or below the first one past them", an index range from the oldest up: on PostgreSQL
        // that range starts with every entry deleted since the last vacuum, which a bitmap
        // scan visits again on each push (a busy account's push cost 150 µs, then 420 µs
        // 4,500 pushes later; this way 80-120 µs throughout). Nor a NOT IN of the kept
        // entries, which cost PostgreSQL a fifth of a PATCH's time.
        let owner = database.dialect.sameValue("partition", scope)
        let past = database.dialect.limit(nil, offset: max(limit, 0))
        try database.executeWithoutWaiting(
            "DELETE FROM _slate_undo WHERE seq IN (SELECT seq FROM _slate_undo WHERE stack = ? AND \(owner.sql) ORDER BY seq DESC\(past.sql))",
            [.text(stack.rawValue)] + owner.arguments + past.arguments)
    }

    /// Removes and returns the newest entry of `stack` in `partition`'s history.
    static func pop(_ stack: Stack, partition: String?, in database: Database) throws -> Entry? {
        let owner = database.dialect.sameValue("partition", partition.map(DatabaseValue.text) ?? .null)
        guard let row = try database.rows(
            "SELECT seq, payload FROM _slate_undo WHERE stack = ? AND \(owner.sql) ORDER BY seq DESC LIMIT 1",
            [.text(stack.rawValue)] + owner.arguments
        ).first, case .blob(let payload) = row["payload"] else { return nil }
        try database.execute("DELETE FROM _slate_undo WHERE seq = ?", [row["seq"]])
        return try JSONDecoder().decode(Entry.self, from: payload)
    }

    /// Removes and returns the entry of `stack` in `partition`'s history that the commit
    /// with `revision` recorded (undo) or re-applied (redo), wherever it is in the stack.
    static func pop(_ stack: Stack, revision: Int, partition: String?, in database: Database) throws -> Entry? {
        let owner = database.dialect.sameValue("partition", partition.map(DatabaseValue.text) ?? .null)
        guard let row = try database.rows(
            "SELECT seq, payload FROM _slate_undo WHERE stack = ? AND \(owner.sql) AND revision = ? ORDER BY seq DESC LIMIT 1",
            [.text(stack.rawValue)] + owner.arguments + [.integer(Int64(revision))]
        ).first, case .blob(let payload) = row["payload"] else { return nil }
        try database.execute("DELETE FROM _slate_undo WHERE seq = ?", [row["seq"]])
        return try JSONDecoder().decode(Entry.self, from: payload)
    }

    /// The label of the newest entry of `stack`, or nil (and false) when it is empty.
    static func peek(_ stack: Stack, partition: String?, in database: Database) throws -> (exists: Bool, label: String?) {
        let owner = database.dialect.sameValue("partition", partition.map(DatabaseValue.text) ?? .null)
        guard let row = try database.rows(
            "SELECT payload FROM _slate_undo WHERE stack = ? AND \(owner.sql) ORDER BY seq DESC LIMIT 1",
            [.text(stack.rawValue)] + owner.arguments
        ).first, case .blob(let payload) = row["payload"] else { return (false, nil) }
        return (true, try JSONDecoder().decode(Entry.self, from: payload).label)
    }

    static func clear(_ stack: Stack, partition: String?, in database: Database) throws {
        let owner = database.dialect.sameValue("partition", partition.map(DatabaseValue.text) ?? .null)
        try database.executeWithoutWaiting("DELETE FROM _slate_undo WHERE stack = ? AND \(owner.sql)", [.text(stack.rawValue)] + owner.arguments)
    }

    /// The history a commit's entry belongs to: its one partition, else the shared one.
    static func partition(of partitions: Set<String>) -> String? {
        partitions.count == 1 ? partitions.first : nil
    }

    /// A partition value as stored text, for the `in:` parameters of undo and redo.
    static func scope(_ value: (any DatabaseValueConvertible)?) -> String? {
        guard let value else { return nil }
        if case .text(let text) = value.databaseValue { return text }
        return value.databaseValue.description
    }
}

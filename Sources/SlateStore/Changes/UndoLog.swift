import Foundation

/// The persisted undo and redo stacks: each entry is the row images of one commit.
///
/// They live in the database file (table `_slate_undo`), so `undo` works across
/// processes: a command-line tool can undo what its previous run did.
enum UndoLog {
    struct Entry: Codable {
        /// What the user did, as the app named it ("Complete “Buy milk”").
        let label: String?
        let images: [RowImage]
    }

    enum Stack: String {
        case undo, redo
    }

    static func push(_ entry: Entry, onto stack: Stack, revision: Int, limit: Int, in database: Database) throws {
        let payload = try JSONEncoder().encode(entry)
        try database.execute(
            "INSERT INTO _slate_undo(stack, revision, payload) VALUES (?, ?, ?)",
            [.text(stack.rawValue), .integer(Int64(revision)), .blob(payload)])
        try database.execute(
            "DELETE FROM _slate_undo WHERE stack = ? AND seq NOT IN (SELECT seq FROM _slate_undo WHERE stack = ? ORDER BY seq DESC LIMIT ?)",
            [.text(stack.rawValue), .text(stack.rawValue), .integer(Int64(max(limit, 0)))])
    }

    /// Removes and returns the newest entry of `stack`.
    static func pop(_ stack: Stack, in database: Database) throws -> Entry? {
        guard let row = try database.rows(
            "SELECT seq, payload FROM _slate_undo WHERE stack = ? ORDER BY seq DESC LIMIT 1", [.text(stack.rawValue)]
        ).first, case .blob(let payload) = row["payload"] else { return nil }
        try database.execute("DELETE FROM _slate_undo WHERE seq = ?", [row["seq"]])
        return try JSONDecoder().decode(Entry.self, from: payload)
    }

    /// The label of the newest entry of `stack`, or nil (and false) when it is empty.
    static func peek(_ stack: Stack, in database: Database) throws -> (exists: Bool, label: String?) {
        guard let row = try database.rows(
            "SELECT payload FROM _slate_undo WHERE stack = ? ORDER BY seq DESC LIMIT 1", [.text(stack.rawValue)]
        ).first, case .blob(let payload) = row["payload"] else { return (false, nil) }
        return (true, try JSONDecoder().decode(Entry.self, from: payload).label)
    }

    static func clear(_ stack: Stack, in database: Database) throws {
        try database.execute("DELETE FROM _slate_undo WHERE stack = ?", [.text(stack.rawValue)])
    }
}

import Foundation
import SlateStore

/// What the sign-in limiter keeps under one key (an account name, a client network, or
/// both): recent events, attempts still being checked, and when it was last used.
public struct SignInEntry: Sendable, Equatable {
    /// Recent failures (or attempts, for the attempt counter), oldest first.
    public var events: [Date]
    /// Attempts begun and not yet finished.
    public var pending: Int
    public var lastUsed: Date

    public init(events: [Date] = [], pending: Int = 0, lastUsed: Date = .distantPast) {
        self.events = events
        self.pending = pending
        self.lastUsed = lastUsed
    }
}

/// The sign-in limiter's entries kept in the database, so that every node behind one
/// PostgreSQL database counts the same attempts (a guesser spreading tries over the nodes
/// gains nothing). A single server on a file keeps them in memory instead.
///
/// Each update reads the entries it needs with their revisions and writes back against
/// them: two nodes counting at once never lose a count (one's write is refused and it
/// counts again on what the other wrote).
public final class SignInLedger: Sendable {
    let container: ModelContainer

    /// The ledger of `store` when several processes share it (PostgreSQL); nil for a file.
    public init?(store: BoardStore) {
        guard store.announcesCommits else { return nil }
        container = store
    }

    /// Runs `body` on the stored entries of `keys` (absent ones missing) and stores what it
    /// leaves (a removed key is deleted), as one step against other nodes' updates. `body`
    /// may run more than once; it must only compute.
    public func update<T>(keys: [String], _ body: (inout [String: SignInEntry]) -> T) throws -> T {
        for _ in 0..<16 {
            let context = ModelContext(container, undo: false)
            let found = try context.fetchRevisioned(FetchDescriptor<SignInCounter>().matching(\.key, isIn: keys))
            var rows: [String: Revisioned<SignInCounter>] = [:]
            for row in found { rows[row.model.key] = row }
            let before = rows.mapValues(\.model.entry)
            var entries = before
            let result = body(&entries)
            for key in Set(before.keys).union(entries.keys) {
                switch (rows[key], entries[key]) {
                case (nil, let entry?):
                    context.insert(SignInCounter(id: UUID(), key: key, entry: entry))
                case (let row?, let entry?) where row.model.entry != entry:
                    context.update(SignInCounter(id: row.model.id, key: key, entry: entry), expectedRevision: row.revision)
                case (let row?, nil):
                    context.delete(row.model, expectedRevision: row.revision)
                default:
                    break
                }
            }
            do {
                if context.hasChanges { _ = try context.save() }
                return result
            } catch StoreError.conflict, StoreError.constraintViolation {
                // Another node counted first: count again on what it wrote.
                continue
            } catch let error as StoreError {
                throw SlateError(error)
            }
        }
        throw SlateError.busy
    }

    /// Deletes the entries last used before `cutoff`, except those whose key starts with
    /// `keptPrefix` (remembered addresses), which go when last used before `keptCutoff`.
    public func purge(before cutoff: Date, keeping keptPrefix: String, until keptCutoff: Date) throws {
        let context = ModelContext(container, undo: false)
        try context.delete(model: SignInCounter.self, where: #Predicate {
            $0.lastUsed < keptCutoff || ($0.lastUsed < cutoff && !$0.key.starts(with: keptPrefix))
        })
        do { _ = try context.save() } catch let error as StoreError { throw SlateError(error) }
    }
}

/// One stored entry of the ledger.
struct SignInCounter: PersistentModel {
    var id: UUID
    var key: String
    /// The events as seconds since 2001 (JSON).
    var events: [Double]
    var pending: Int
    var lastUsed: Date

    init(id: UUID, key: String, entry: SignInEntry) {
        self.id = id
        self.key = key
        events = entry.events.map(\.timeIntervalSinceReferenceDate)
        pending = entry.pending
        lastUsed = entry.lastUsed
    }

    var entry: SignInEntry {
        SignInEntry(events: events.map(Date.init(timeIntervalSinceReferenceDate:)), pending: pending, lastUsed: lastUsed)
    }

    static let schema = ModelSchema<SignInCounter>(
        table: "sign_in_counters",
        columns: [.column(\.key, "key"), .json(\.events, "events"), .column(\.pending, "pending"), .column(\.lastUsed, "lastUsed")],
        indexes: [Index("sign_in_counters_by_key", on: ["key"], unique: true), Index("sign_in_counters_by_use", on: ["lastUsed"])]
    )
}

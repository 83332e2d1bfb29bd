import Foundation

/// A scratchpad of changes to models, saved to the store in one transaction.
///
/// ```swift
/// let context = ModelContext(container)
/// context.insert(note)
/// context.delete(oldNote)
/// try context.save()        // both, or neither
/// let recent = try context.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.created)]))
/// ```
///
/// Inserts, updates and deletes are staged until `save()`; fetches read what is
/// committed. A context belongs to one task or thread at a time (it is not `Sendable`);
/// make one per task from the shared container.
public final class ModelContext {
    /// The store this context reads and writes.
    public let container: ModelContainer
    /// When true, each `save()` records what it changed so `undo()` can restore it.
    public var isUndoEnabled: Bool
    /// For bulk writes (an import): the undo entry of a `save()` records inserted rows by
    /// id instead of by their values, so it stays small however many rows were written.
    /// Undoing it deletes those rows (refused with `.conflict` if one changed since) and
    /// reverts the rest of the commit; it cannot be redone.
    public var recordsInsertsByID = false
    var pending: [PendingChange] = []

    /// A context on `container`. Undo recording is on unless `undo` is false
    /// (bulk imports turn it off to save the before-images).
    public init(_ container: ModelContainer, undo: Bool = true) {
        self.container = container
        self.isUndoEnabled = undo
    }

    /// True when there are staged changes that `save()` would write.
    public var hasChanges: Bool { !pending.isEmpty }

    /// Reads the caller makes right after `save()` (the saved row read back, say). When the
    /// save runs inside an open transaction (a change of a group commit), PostgreSQL gets
    /// them with the save's last round trip, after it, and answers them from there; they
    /// are made as usual otherwise. A hint: what is read is the same either way.
    public var readsAfterSave: [ExpectedRead] = []

    /// Discards all staged changes.
    public func rollback() { pending.removeAll() }
}

/// A staged change, already encoded to column values.
enum PendingChange {
    case insert(table: String, values: [DatabaseValue], check: ModelCheck?)
    case update(table: String, values: [DatabaseValue], expectedRevision: Int?, check: ModelCheck?)
    case upsert(table: String, values: [DatabaseValue], check: ModelCheck?)
    case delete(table: String, id: UUID, expectedRevision: Int?)
    case deleteMatching(table: String, ids: (Database) throws -> [UUID])
}

/// Reads a just-written row back through `Decodable` and compares it with what the key
/// paths wrote, once per model type: catches a column name that is not the coding key.
struct ModelCheck {
    let run: (Database) throws -> Void
}

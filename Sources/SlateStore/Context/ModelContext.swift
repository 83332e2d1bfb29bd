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
    /// The model types whose consistency check is staged in `pending` already: one row of a
    /// type is checked (see `check`), so the rest of a bulk insert carries none.
    var checksStaged: Set<ObjectIdentifier> = []

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
    public func rollback() {
        pending.removeAll()
        checksStaged.removeAll()
    }
}

/// A staged change: an inserted model, encoded to column values when the save writes it;
/// the others already encoded.
enum PendingChange {
    case insert(table: String, row: StagedRow, check: ModelCheck?)
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

/// A model staged for insertion, kept as the model until the save writes it.
///
/// A bulk insert stages every row before its save: kept as column values, each row was an
/// array of them and a string per id (about 500 bytes a task against the model's 150),
/// made long before the save read them back, cold, to bind them.
struct StagedRow {
    private let model: any PersistentModel

    init(_ model: some PersistentModel) { self.model = model }

    /// The model's column values, in its schema's order.
    var values: [DatabaseValue] { Self.encode(model) }

    static func encode<Model: PersistentModel>(_ model: Model) -> [DatabaseValue] {
        if let write = Model.rowWriter { return write(model) }
        return Model.schema.columnValues(of: model)
    }
}

import Foundation

/// One committed write: its store sequence, the revision it took in each partition it
/// touched, and which rows it touched.
public struct Commit: Sendable, Hashable {
    /// Why the rows changed.
    public enum Origin: String, Sendable {
        /// `ModelContext.save()`.
        case save
        /// `ModelContext.undo()`.
        case undo
        /// `ModelContext.redo()`.
        case redo
        /// Another process wrote to the same file.
        case external
        /// Not a change: the subscriber fell too far behind and missed commits. It should
        /// read everything again (as of `revision` or later).
        case resync
    }

    /// The store sequence of this commit: store-wide, for ordering commits and caching.
    /// It stamps the rows that belong to no partition; a partition's readers see
    /// `revision(in:)` instead, which other partitions' commits never move.
    public let revision: Int
    /// The revision this commit took in each partition it touched, by partition value
    /// as stored text (see `ModelSchema`'s partition column).
    public let revisions: [String: Int]
    /// What made the change.
    public let origin: Origin
    /// Changed ids per table name.
    public let tables: [String: TableChanges]
    /// The partition values (such as account ids, as stored text) of every row the
    /// commit touched, for models that declare a partition column.
    public let partitions: Set<String>

    public init(revision: Int, origin: Origin, tables: [String: TableChanges], partitions: Set<String> = [],
                revisions: [String: Int] = [:]) {
        self.revision = revision
        self.revisions = revisions
        self.origin = origin
        self.tables = tables
        self.partitions = partitions
    }

    /// True when the commit touched a row of `partition` (compared as stored text).
    public func touches(partition value: some DatabaseValueConvertible) -> Bool {
        if case .text(let text) = value.databaseValue { return partitions.contains(text) }
        return partitions.contains(value.databaseValue.description)
    }

    /// The revision this commit took in `partition` (compared as stored text), or nil when
    /// it touched no row of it.
    public func revision(in value: some DatabaseValueConvertible) -> Int? {
        if case .text(let text) = value.databaseValue { return revisions[text] }
        return revisions[value.databaseValue.description]
    }

    /// The ids of `Model` that this commit touched.
    public func changes<Model: PersistentModel>(of model: Model.Type) -> TableChanges {
        tables[Model.schema.tableName] ?? TableChanges()
    }

    /// True when the commit touched any row of `Model`.
    public func affects<Model: PersistentModel>(_ model: Model.Type) -> Bool { tables[Model.schema.tableName] != nil }
}

/// Ids of one table's rows that a commit inserted, updated or deleted.
public struct TableChanges: Sendable, Hashable {
    /// Rows that did not exist before.
    public var inserted: Set<UUID> = []
    /// Rows that existed and changed.
    public var updated: Set<UUID> = []
    /// Rows that no longer exist.
    public var deleted: Set<UUID> = []

    public init(inserted: Set<UUID> = [], updated: Set<UUID> = [], deleted: Set<UUID> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// True when nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// What changed in one model's table since a revision: for delta sync and sync tokens.
public struct ChangeSet<Model: PersistentModel>: Sendable {
    /// Rows inserted or updated since the revision, with their current values.
    public let upserted: [Model]
    /// Ids of rows deleted since the revision (and not re-created).
    public let deleted: [UUID]
    /// The revision this answer is current to (the partition's when one was asked for,
    /// else the store sequence); pass it as `since` next time.
    public let revision: Int
}

/// A model with the revision of its last change, the basis of ETags and conflict checks.
public struct Revisioned<Model: PersistentModel>: Sendable {
    /// The stored value.
    public let model: Model
    /// The revision of the row's last change (its partition's, see `Commit.revision(in:)`).
    public let revision: Int
}

/// A row that left its group (see `ModelSchema.groupColumn`): moved to another, or deleted.
public struct Departure: Sendable, Hashable {
    public let id: UUID
    /// The group it left; nil when it had none.
    public let group: UUID?
    /// The partition revision of the change that moved or deleted it.
    public let revision: Int
}

/// SlateStore: SwiftData-shaped persistence on SQLite, for any Swift app on Linux.
///
/// - Declare models as `struct`s conforming to ``PersistentModel`` with a ``ModelSchema``.
/// - Open a ``ModelContainer``; read and write through a ``ModelContext``.
/// - Query with ``FetchDescriptor``: a Foundation `#Predicate` (translated to SQL),
///   sort descriptors, limit, offset and full-text `searchText`.
/// - Every commit bumps a store-wide revision; ``ModelContext/changes(of:since:)`` and
///   ``ModelContainer/commits()`` build live views and sync on it.
/// - ``ModelContext/undo()`` and ``ModelContext/redo()`` replay recorded row images.
///
/// The module knows nothing about tasks: SlateCore builds the task domain on it.
public enum SlateStoreInfo {
    /// The version of the store's file layout (internal tables), not of app schemas.
    public static let formatVersion = 1
}

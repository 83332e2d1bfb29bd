import Foundation

/// A value type that SlateStore can persist: a `struct` identified by a UUID that
/// declares its table once, in `schema`.
///
/// ```swift
/// struct Note: PersistentModel {
///     var id = UUID()
///     var title: String
///     var folderID: UUID?
///
///     static let schema = ModelSchema<Note>(
///         table: "notes",
///         columns: [.column(\.title, "title")],
///         references: [.reference(\.folderID, "folderID", to: Folder.self, onDelete: .cascade)],
///         searchable: ["title"]
///     )
/// }
/// ```
///
/// Column names are the model's coding keys: the store writes through the key paths
/// and reads back through `Decodable`, and checks once per model that both agree.
public protocol PersistentModel: Codable, Sendable, Identifiable where ID == UUID {
    /// The table, columns, references, indexes and searchable text of the model.
    static var schema: ModelSchema<Self> { get }

    /// How a fetch makes the model from a row without `Decodable`, or nil to decode it.
    /// Supplied by `RowReadable`; there is no need to implement it.
    static var rowReader: ((StoredRow) throws -> Self)? { get }

    /// How a save gets the model's column values without its key paths, or nil to read
    /// them through the key paths. Supplied by `RowWritable`; there is no need to implement it.
    static var rowWriter: (@Sendable (Self) -> [DatabaseValue])? { get }
}

extension PersistentModel {
    /// Rows decode through `Decodable`.
    public static var rowReader: ((StoredRow) throws -> Self)? { nil }

    /// Column values come from the key paths.
    public static var rowWriter: (@Sendable (Self) -> [DatabaseValue])? { nil }
}

/// What happens to rows that refer to a row being deleted.
public enum DeleteRule: String, Sendable {
    /// Delete them too (and what refers to them, recursively).
    case cascade
    /// Keep them and clear their reference.
    case nullify
    /// Refuse the delete while any exist.
    case deny
}

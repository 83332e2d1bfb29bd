import Foundation

/// A model that writes its own column values, instead of the store reading each column's
/// key path: for a model saved in bulk (tasks, by an import), where the key paths, one
/// `swift_getAtKeyPath` and a boxed value per column, were a fifth of the instructions.
///
/// The values must equal what the schema's columns give, in `schema.columns` order (`id`
/// first, then the columns, then the references); a model's tests should compare the two
/// (`ModelSchema.columnValues(of:)`).
///
/// ```swift
/// extension Note: RowWritable {
///     public var rowValues: [DatabaseValue] { [id.databaseValue, title.databaseValue, folderID.databaseValue] }
/// }
/// ```
public protocol RowWritable: PersistentModel {
    /// The model's column values in `schema.columns` order.
    var rowValues: [DatabaseValue] { get }
}

extension RowWritable {
    /// Rows are written by `rowValues`: a requirement of `PersistentModel`, not a dynamic
    /// cast (see `RowReadable.rowReader`).
    public static var rowWriter: (@Sendable (Self) -> [DatabaseValue])? { { $0.rowValues } }
}

extension ModelSchema {
    /// The model's column values as its columns' key paths give them (what `RowWritable`
    /// must equal).
    public func columnValues(of model: Model) -> [DatabaseValue] {
        columns.map { $0.encode(model) }
    }
}

extension DatabaseValue {
    /// An array as a `json` column stores it (JSON text, the same bytes as the column writes).
    public static func json<Element: Encodable>(_ values: [Element]) -> DatabaseValue {
        JSONColumnText.array(values).map(DatabaseValue.text) ?? .null
    }
}

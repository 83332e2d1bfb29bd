import Foundation

/// A model that reads itself from a fetched row, column by column, instead of through its
/// `Decodable` conformance: the generic decoding machinery (a keyed container, a dynamic
/// cast per column) was most of the cost of fetching a page of rows.
///
/// The result must equal what `init(from:)` gives for the same row; a model's tests
/// should compare the two.
///
/// ```swift
/// extension Note: RowReadable {
///     public init(row: StoredRow) throws {
///         self.init(id: try row.uuid(0), title: try row.string(1))
///     }
/// }
/// ```
public protocol RowReadable: PersistentModel {
    /// Reads the model from `row`, whose columns are `schema.columns` in order (`id` first).
    init(row: StoredRow) throws
}

extension RowReadable {
    /// Rows are read by `init(row:)`. A requirement of `PersistentModel` rather than a
    /// dynamic cast to `RowReadable`: the first cast of each model type in a process
    /// searched every protocol conformance of the program (about 220,000 instructions).
    public static var rowReader: ((StoredRow) throws -> Self)? { { try Self(row: $0) } }
}

/// The current row of a fetch, read by column position (the order of `schema.columns`).
/// Valid only inside `RowReadable.init(row:)`.
public struct StoredRow {
    let statement: ResultRow
    let model: Any.Type

    /// The position of the column named `name` in `schema`, for a model to look up once.
    public static func position<Model: PersistentModel>(of name: String, in schema: ModelSchema<Model>) -> Int32 {
        guard let index = schema.columns.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("\(Model.self) has no column named \(name)")
        }
        return Int32(index)
    }

    private func failure(_ index: Int32, _ type: Any.Type) -> StoreError {
        StoreError.decodingFailed(model: String(describing: model), column: statement.columnName(index),
                                  reason: "the stored value \(statement.value(at: index).description) is not a \(type)")
    }

    /// True when the column holds NULL.
    public func isNull(_ index: Int32) -> Bool { statement.isNull(at: index) }

    /// An id stored as text; anything else throws `StoreError.decodingFailed`.
    public func uuid(_ index: Int32) throws -> UUID {
        guard statement.isText(at: index), let uuid = statement.uuid(at: index) else { throw failure(index, UUID.self) }
        return uuid
    }

    /// nil for NULL; a value that is not an id throws, as decoding it would.
    public func optionalUUID(_ index: Int32) throws -> UUID? {
        statement.isNull(at: index) ? nil : try uuid(index)
    }

    /// Text; NULL throws.
    public func string(_ index: Int32) throws -> String {
        guard !statement.isNull(at: index) else { throw failure(index, String.self) }
        return statement.text(at: index)
    }

    /// An integer; NULL throws.
    public func int(_ index: Int32) throws -> Int {
        guard !statement.isNull(at: index) else { throw failure(index, Int.self) }
        return Int(statement.int64(at: index))
    }

    /// An integer, nil for NULL.
    public func optionalInt(_ index: Int32) -> Int? {
        statement.isNull(at: index) ? nil : Int(statement.int64(at: index))
    }

    /// A number; NULL throws.
    public func double(_ index: Int32) throws -> Double {
        guard !statement.isNull(at: index) else { throw failure(index, Double.self) }
        return statement.double(at: index)
    }

    /// A flag stored as 0 or 1; NULL throws.
    public func bool(_ index: Int32) throws -> Bool {
        guard !statement.isNull(at: index) else { throw failure(index, Bool.self) }
        return statement.int64(at: index) != 0
    }

    /// A date stored as seconds since 2001 (see `Date.databaseValue`); NULL throws.
    public func date(_ index: Int32) throws -> Date {
        guard !statement.isNull(at: index) else { throw failure(index, Date.self) }
        return Date(timeIntervalSinceReferenceDate: statement.double(at: index))
    }

    /// A date, nil for NULL.
    public func optionalDate(_ index: Int32) -> Date? {
        statement.isNull(at: index) ? nil : Date(timeIntervalSinceReferenceDate: statement.double(at: index))
    }

    /// A value of a type that converts itself (enums, `Recurrence`); NULL or an
    /// unreadable value throws.
    public func value<T: DatabaseValueConvertible>(_ index: Int32, as type: T.Type = T.self) throws -> T {
        guard let value = T.fromDatabaseValue(statement.value(at: index)) else { throw failure(index, type) }
        return value
    }

    /// Like `value(_:as:)`, nil for NULL.
    public func optionalValue<T: DatabaseValueConvertible>(_ index: Int32, as type: T.Type = T.self) throws -> T? {
        statement.isNull(at: index) ? nil : try value(index, as: type)
    }

    /// A string array stored as JSON (`Column.json`).
    public func strings(_ index: Int32) throws -> [String] {
        guard statement.isText(at: index) else { throw failure(index, [String].self) }
        let text = statement.text(at: index)
        if let strings = JSONStringArray.parse(text) { return strings }
        guard let strings = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { throw failure(index, [String].self) }
        return strings
    }
}

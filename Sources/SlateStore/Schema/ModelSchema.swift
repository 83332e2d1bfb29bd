import Foundation

/// The storage declaration of one model: its table and how each stored property maps
/// to a column. The `id` property is always the column `id`.
///
/// `Model` is not constrained here but in the initialiser: a process makes each model's
/// `ModelSchema` and `Column` types by name at start-up, and a constraint makes the Swift
/// runtime check the model's conformance by scanning every conformance record of the
/// binary, once per model (14 scans, 3.4M instructions of every `slate` command).
public struct ModelSchema<Model>: Sendable {
    /// The SQL table name.
    public let tableName: String
    /// The stored properties other than `id`, references included.
    public let columns: [Column<Model>]
    /// Secondary indexes (reference columns are indexed automatically).
    public let indexes: [Index]
    /// Columns whose text the full-text index covers.
    public let searchableColumns: [String]
    /// Counts of rows per value of some columns, kept by every save (see `CountIndex`).
    public let countIndexes: [CountIndex]
    /// The column that says whose a row is (an account id), if rows are partitioned:
    /// tombstones and commits then record it, so changes can be read per partition.
    public let partitionColumn: String?
    /// A reference column that groups rows (a task's list): when a row leaves its group
    /// (the value changes, or the row is deleted), the group it left is recorded, so that
    /// a reader of one group's changes learns which rows left it (`departures`).
    public let groupColumn: String?
    /// `t."id", t."title", …, t."_rev"`: the SELECT list of whole rows, built once.
    let selectList: String
    /// Each column's position by its key path: a lookup by key path compared key paths
    /// one by one, and a subtask count did two of them per request (callgrind).
    private let positions: [KeyPathKey: Int]
}

extension ModelSchema where Model: PersistentModel {
    /// Declares a model's table.
    /// - Parameters:
    ///   - table: the SQL table name.
    ///   - columns: stored properties, each `.column(\.keyPath, "codingKey")`.
    ///   - references: to-one relationships, each a foreign-key property with a delete rule.
    ///   - indexes: secondary indexes.
    ///   - searchable: text columns to keep in the full-text index.
    ///   - counts: counts of rows to keep per value of some columns, for `fetchCount`.
    ///   - partition: the column that says whose a row is, such as "accountID".
    ///   - group: a column whose changes are recorded as departures, such as "listID".
    public init(
        table: String,
        columns: [Column<Model>],
        references: [Column<Model>] = [],
        indexes: [Index] = [],
        searchable: [String] = [],
        counts: [CountIndex] = [],
        partition: String? = nil,
        group: String? = nil
    ) {
        self.tableName = table
        // One loop instead of `+`, `map` and `Dictionary(_:uniquingKeysWith:)`: this runs
        // once per model in every process, unspecialised (its models are another module's),
        // and those generic passes cost 2.5M instructions of opening a store (callgrind).
        var all: [Column<Model>] = []
        all.reserveCapacity(columns.count + references.count + 1)
        all.append(Column.identifier)
        all.append(contentsOf: columns)
        all.append(contentsOf: references)
        var selectList = ""
        var positions: [KeyPathKey: Int] = [:]
        positions.reserveCapacity(all.count)
        for position in all.indices {
            selectList += "t." + quote(all[position].name) + ", "
            let key = KeyPathKey(all[position].keyPath)
            if positions[key] == nil { positions[key] = position }
        }
        self.columns = all
        self.indexes = indexes
        self.searchableColumns = searchable
        self.countIndexes = counts
        self.partitionColumn = partition
        self.groupColumn = group
        self.selectList = selectList + "t.\"_rev\""
        self.positions = positions
    }
}

extension ModelSchema {
    /// The column stored at `keyPath`, if any.
    ///
    /// The `id` column is declared generically (`\Model.id` names the `Identifiable`
    /// requirement), which does not compare equal to the app's `\Note.id`; that one is
    /// recognised by its type and name.
    func column(for keyPath: AnyKeyPath) -> Column<Model>? {
        if let position = positions[KeyPathKey(keyPath)] { return columns[position] }
        if keyPath is KeyPath<Model, UUID>, String(describing: keyPath) == "\\\(Model.self).id" {
            return columns.first { $0.name == "id" }
        }
        return nil
    }

    /// The column stored at `keyPath`, or `StoreError.unknownKeyPath` naming the model and path.
    func requiredColumn(for keyPath: AnyKeyPath) throws -> Column<Model> {
        guard let column = column(for: keyPath) else {
            throw StoreError.unknownKeyPath(model: String(describing: Model.self), keyPath: "\(keyPath)")
        }
        return column
    }
}

/// A key path as a dictionary key.
private struct KeyPathKey: Hashable, @unchecked Sendable {
    // Safe: a key path is immutable once made, and hashing or comparing one reads only it.
    let keyPath: AnyKeyPath
    init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}

/// One stored property of a model (`Model` is constrained where it is needed, as in
/// `ModelSchema`).
public struct Column<Model>: Sendable {
    /// The column name, which is also the property's coding key.
    public let name: String
    let keyPath: PartialKeyPath<Model> & Sendable
    let type: ColumnType
    let isOptional: Bool
    let encode: @Sendable (Model) -> DatabaseValue
    /// For enum columns: recognises `\Enum.rawValue`, so `$0.priority.rawValue` maps to the column.
    let rawValueKeyPath: RawValueMatcher?
    /// The value given to existing rows when a migration adds this column.
    let defaultValue: DatabaseValue?
    /// The referenced model's table and delete rule, for references.
    let reference: ColumnReference?
    /// Numbered by the store on insert (see `sequence(_:_:)`).
    var isSequence = false
}

extension Column where Model: PersistentModel {
    static var identifier: Column {
        Column(name: "id", keyPath: \Model.id, type: .text, isOptional: false,
               encode: { $0.id.databaseValue }, rawValueKeyPath: nil, defaultValue: nil, reference: nil)
    }
}

extension Column {
    /// A stored property.
    /// - Parameters:
    ///   - keyPath: the property.
    ///   - name: the column name, equal to the property's coding key.
    ///   - default: the value existing rows get when a migration adds this column;
    ///     required for a non-optional column added to a table that has rows.
    public static func column<Value: DatabaseValueConvertible>(
        _ keyPath: KeyPath<Model, Value> & Sendable, _ name: String, default defaultValue: Value? = nil
    ) -> Column {
        Column(name: name, keyPath: keyPath, type: Value.columnType, isOptional: Value.isOptional,
               encode: { $0[keyPath: keyPath].databaseValue }, rawValueKeyPath: nil,
               defaultValue: defaultValue?.databaseValue, reference: nil)
    }

    /// A stored enum property, kept as its raw value.
    public static func column<Value: DatabaseValueConvertible & RawRepresentable>(
        _ keyPath: KeyPath<Model, Value> & Sendable, _ name: String, default defaultValue: Value? = nil
    ) -> Column where Value.RawValue: DatabaseValueConvertible {
        Column(name: name, keyPath: keyPath, type: Value.columnType, isOptional: false,
               encode: { $0[keyPath: keyPath].databaseValue }, rawValueKeyPath: RawValueMatcher(Value.self),
               defaultValue: defaultValue?.databaseValue, reference: nil)
    }

    /// An optional stored enum property, kept as its raw value or NULL.
    public static func column<Wrapped: DatabaseValueConvertible & RawRepresentable>(
        _ keyPath: KeyPath<Model, Wrapped?> & Sendable, _ name: String
    ) -> Column where Wrapped.RawValue: DatabaseValueConvertible {
        Column(name: name, keyPath: keyPath, type: Wrapped.columnType, isOptional: true,
               encode: { $0[keyPath: keyPath].databaseValue }, rawValueKeyPath: RawValueMatcher(Wrapped.self),
               defaultValue: nil, reference: nil)
    }

    /// A short number the store assigns on insert when the model's value is 0: one more
    /// than the largest in the row's partition (in the table, without one), inside the
    /// inserting transaction (so two writers never get the same number). For numbers
    /// people type, like `#12`; declare a unique index on the partition and the number.
    public static func sequence(_ keyPath: KeyPath<Model, Int> & Sendable, _ name: String) -> Column {
        var column = Column.column(keyPath, name, default: 0)
        column.isSequence = true
        return column
    }

    /// A property of any `Codable` type (an array of tags, a small struct), stored as
    /// JSON text. Predicates can test membership in a stored array: `$0.tags.contains(tag)`.
    public static func json<Value: Codable & Sendable>(
        _ keyPath: KeyPath<Model, Value> & Sendable, _ name: String, default defaultValue: Value? = nil
    ) -> Column {
        let encode: @Sendable (Value) -> DatabaseValue = { value in
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            guard let data = try? encoder.encode(value) else { return .null }
            return .text(String(decoding: data, as: UTF8.self))
        }
        return Column(name: name, keyPath: keyPath, type: .text, isOptional: false,
                      encode: { encode($0[keyPath: keyPath]) }, rawValueKeyPath: nil,
                      defaultValue: defaultValue.map(encode), reference: nil)
    }

    /// An array property stored as JSON text, as `json(_:_:default:)` stores it (the same
    /// bytes), written by hand when it is empty or holds strings (`JSONColumnText`).
    public static func json<Element: Codable & Sendable>(
        _ keyPath: KeyPath<Model, [Element]> & Sendable, _ name: String, default defaultValue: [Element]? = nil
    ) -> Column {
        let encode: @Sendable ([Element]) -> DatabaseValue = { DatabaseValue.json($0) }
        return Column(name: name, keyPath: keyPath, type: .text, isOptional: false,
                      encode: { encode($0[keyPath: keyPath]) }, rawValueKeyPath: nil,
                      defaultValue: defaultValue.map(encode), reference: nil)
    }

    /// A to-one relationship: a property holding the id of a `Target` row.
    ///
    /// Deleting that row applies `onDelete` to this one. `.nullify` needs an optional property.
    public static func reference<Target: PersistentModel>(
        _ keyPath: KeyPath<Model, UUID?> & Sendable, _ name: String, to target: Target.Type, onDelete rule: DeleteRule
    ) -> Column {
        Column(name: name, keyPath: keyPath, type: .text, isOptional: true,
               encode: { $0[keyPath: keyPath].databaseValue }, rawValueKeyPath: nil, defaultValue: nil,
               reference: ColumnReference(target: target, deleteRule: rule))
    }

    /// A required to-one relationship (never NULL); its rule must be `.cascade` or `.deny`.
    public static func reference<Target: PersistentModel>(
        _ keyPath: KeyPath<Model, UUID> & Sendable, _ name: String, to target: Target.Type, onDelete rule: DeleteRule
    ) -> Column {
        Column(name: name, keyPath: keyPath, type: .text, isOptional: false,
               encode: { $0[keyPath: keyPath].databaseValue }, rawValueKeyPath: nil, defaultValue: nil,
               reference: ColumnReference(target: target, deleteRule: rule))
    }
}

/// A secondary index.
public struct Index: Sendable, Hashable {
    /// The index name, unique in the database.
    public let name: String
    /// Indexed columns in order; a trailing ` COLLATE NOCASE` is kept. Besides the declared
    /// columns an index may name the store's own two: `_pk` (the row's insertion order, the
    /// last key of every sort) and `_rev` (its revision). Ending an index with a query's sort
    /// keys, `_pk`, `id` and `_rev` lets a listing of ids and revisions in that order
    /// (`ModelContext.fetchRevisions`) be read from the index alone, unsorted.
    public let columns: [IndexedColumn]
    /// True for a UNIQUE index.
    public let isUnique: Bool

    /// An index on `columns`.
    public init(_ name: String, on columns: [IndexedColumn], unique: Bool = false) {
        self.name = name
        self.columns = columns
        self.isUnique = unique
    }
}

/// A column of an index, with its collation.
public struct IndexedColumn: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The column name.
    public let name: String
    /// True to compare ASCII letters case-insensitively (`COLLATE NOCASE`).
    public let ignoresCase: Bool
    /// True to keep the column in descending order, to serve a mixed-direction sort.
    public let isDescending: Bool

    /// A column compared as stored.
    public init(_ name: String, ignoresCase: Bool = false, descending: Bool = false) {
        self.name = name
        self.ignoresCase = ignoresCase
        self.isDescending = descending
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The column compared case-insensitively.
    public static func caseInsensitive(_ name: String) -> IndexedColumn { IndexedColumn(name, ignoresCase: true) }

    /// The column in descending order.
    public static func descending(_ name: String) -> IndexedColumn { IndexedColumn(name, descending: true) }
}

/// The row a reference column points to, and what deleting that row does.
///
/// It keeps the target's type, not its table name: reading `Target.schema` while a
/// model's own `schema` is being initialised would deadlock on a self-reference.
struct ColumnReference: Sendable {
    let target: any PersistentModel.Type
    let deleteRule: DeleteRule

    var tableName: String { Self.tableName(of: target) }

    private static func tableName<Target: PersistentModel>(of target: Target.Type) -> String { Target.schema.tableName }
}

/// Recognises a key path to an enum's `rawValue`.
///
/// Key paths cannot be compared for this: `\Priority.rawValue` written in an app and
/// `\Value.rawValue` written generically here name different accessors. So a key path
/// from the enum to its raw value type is accepted, and for a `CaseIterable` enum it is
/// also checked to give each case's raw value.
struct RawValueMatcher: Sendable {
    let matches: @Sendable (AnyKeyPath) -> Bool

    init<Value: RawRepresentable & DatabaseValueConvertible>(_ type: Value.Type) where Value.RawValue: DatabaseValueConvertible {
        matches = { keyPath in
            guard let typed = keyPath as? KeyPath<Value, Value.RawValue> else { return false }
            guard let iterable = Value.self as? any CaseIterable.Type else { return true }
            return Self.allCases(of: iterable).allSatisfy { element in
                guard let value = element as? Value else { return false }
                return value[keyPath: typed].databaseValue == value.rawValue.databaseValue
            }
        }
    }

    private static func allCases<Cases: CaseIterable>(of type: Cases.Type) -> [Any] { Cases.allCases.map { $0 } }
}

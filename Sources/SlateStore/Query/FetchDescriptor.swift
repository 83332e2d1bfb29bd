import Foundation

/// What to fetch: a predicate, an order, a page, and optionally full-text search.
///
/// ```swift
/// var descriptor = FetchDescriptor<Note>(
///     predicate: #Predicate { $0.folderID == folder && !$0.isArchived },
///     sortBy: [SortDescriptor(\.created, order: .reverse)])
/// descriptor.searchText = "woody"
/// descriptor.fetchLimit = 50
/// ```
public struct FetchDescriptor<Model: PersistentModel>: @unchecked Sendable {
    // `@unchecked`: `Predicate` and `SortDescriptor` are Sendable only when every
    // captured value is; the translator reads them, never mutates them.

    /// Which rows; nil for all.
    public var predicate: Predicate<Model>?
    /// More conditions that must all hold too: lets a caller compose a query from
    /// independent parts without writing one predicate for every combination.
    public var filters: [Predicate<Model>] = []
    /// `column == value` conditions that must hold too (`where(_:is:)`).
    var equalityFilters: [(keyPath: AnyKeyPath, value: DatabaseValue)] = []
    /// `values.contains(column)` conditions that must hold too (`where(_:isIn:)`).
    var membershipFilters: [(keyPath: AnyKeyPath, values: [DatabaseValue])] = []
    /// The order, most significant first; rows that tie keep insertion order.
    public var sortBy: [SortKey<Model>]
    /// At most this many rows.
    public var fetchLimit: Int?
    /// Skip this many rows first.
    public var fetchOffset: Int?
    /// Words that must all appear (as word prefixes) in the searchable columns,
    /// compared without case or diacritics. Nil or blank for no search.
    public var searchText: String?
    /// With `searchText`: put the best matches first, before `sortBy`.
    public var ranksBySearch: Bool = false
    /// Names this descriptor's conditions, order and search for reuse: a descriptor with a
    /// key equal to one seen before is not translated to SQL again, its earlier translation
    /// (and bound values) is used. Equal keys must mean equal descriptors — same
    /// predicates with the same captured values, same sort, same search (limit and offset
    /// may differ) — so put every value the predicates capture into the key. Nil: always
    /// translated.
    public var translationKey: AnyHashable?

    /// A descriptor with Foundation sort descriptors, as in SwiftData.
    public init(predicate: Predicate<Model>? = nil, sortBy: [SortDescriptor<Model>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy.map(SortKey.init)
    }

    /// A descriptor with sort keys, which also sort by Bool and enum columns.
    public init(predicate: Predicate<Model>? = nil, sortKeys: [SortKey<Model>]) {
        self.predicate = predicate
        self.sortBy = sortKeys
    }

    /// Adds the condition that a stored property equals `value` (nil included, as `==`
    /// in a predicate): the same rows as `filters.append(#Predicate { $0.property == value })`.
    ///
    /// ```swift
    /// var descriptor = FetchDescriptor<Note>()
    /// descriptor.where(\.folderID, is: folder)
    /// ```
    ///
    /// It costs a fraction of a `#Predicate` in a short process: each predicate's nested
    /// generic expression type is built at run time the first time it is used (about 1M
    /// instructions each, and as much again to translate it), which every command of a
    /// command-line tool pays again.
    public mutating func `where`<Value: DatabaseValueConvertible>(_ keyPath: KeyPath<Model, Value>, is value: Value) {
        equalityFilters.append((keyPath, value.databaseValue))
    }

    /// Adds the condition that a stored property is one of `values` (nil included when
    /// `values` holds it): the same rows as `filters.append(#Predicate { values.contains($0.property) })`,
    /// written as one `IN` list with no predicate to translate.
    ///
    /// ```swift
    /// var descriptor = FetchDescriptor<Note>()
    /// descriptor.where(\.title, isIn: ["Todo", "Done"])
    /// ```
    ///
    /// Each value is bound: keep the list to a few hundred (SQLite binds at most 32,766
    /// values a statement), in chunks if need be.
    public mutating func `where`<Value: DatabaseValueConvertible>(_ keyPath: KeyPath<Model, Value>, isIn values: some Sequence<Value>) {
        membershipFilters.append((keyPath, values.map(\.databaseValue)))
    }

    /// This descriptor with one more `where(_:isIn:)` condition.
    public func matching<Value: DatabaseValueConvertible>(_ keyPath: KeyPath<Model, Value>, isIn values: some Sequence<Value>) -> Self {
        var descriptor = self
        descriptor.where(keyPath, isIn: values)
        return descriptor
    }

    /// This descriptor with one more `where(_:is:)` condition, to build one in an expression:
    ///
    /// ```swift
    /// let notes = try context.fetch(FetchDescriptor<Note>().matching(\.folderID, is: folder).matching(\.title, is: "Todo"))
    /// ```
    public func matching<Value: DatabaseValueConvertible>(_ keyPath: KeyPath<Model, Value>, is value: Value) -> Self {
        var descriptor = self
        descriptor.where(keyPath, is: value)
        return descriptor
    }
}

/// One term of an order: a stored column and a direction.
public struct SortKey<Model: PersistentModel>: @unchecked Sendable {
    enum Source {
        case descriptor(SortDescriptor<Model>)
        case keyPath(AnyKeyPath, ascending: Bool, nilsLast: Bool)
    }

    let source: Source

    /// From a Foundation sort descriptor (lexical string comparison only).
    public init(_ descriptor: SortDescriptor<Model>) { source = .descriptor(descriptor) }

    /// Ascending on any stored property: false before true, enums by raw value, nil
    /// first unless `nilsLast` (undated tasks after dated ones).
    public static func ascending<Value: DatabaseValueConvertible>(_ keyPath: KeyPath<Model, Value>, nilsLast: Bool = false) -> SortKey {
        SortKey(source: .keyPath(keyPath, ascending: true, nilsLast: nilsLast))
    }

    /// Descending on any stored property: true before false, enums by raw value, nil last.
    public static func descending<Value: DatabaseValueConvertible>(_ keyPath: KeyPath<Model, Value>) -> SortKey {
        SortKey(source: .keyPath(keyPath, ascending: false, nilsLast: true))
    }

    private init(source: Source) { self.source = source }

    /// The ORDER BY term. NULLs come first going up and last going down, unless
    /// `nilsLast`: SQLite's order, written out for PostgreSQL (whose default is the reverse).
    func sql(alias: String, dialect: SQLDialect = .sqlite) throws -> String {
        let keyPath: AnyKeyPath
        let ascending: Bool
        var nulls = ""
        switch source {
        case .keyPath(let path, let isAscending, let nilsLast):
            keyPath = path
            ascending = isAscending
            if nilsLast, isAscending { nulls = " NULLS LAST" }
            if dialect == .postgreSQL, nulls.isEmpty { nulls = isAscending ? " NULLS FIRST" : " NULLS LAST" }
        case .descriptor(let descriptor):
            guard let path = descriptor.keyPath else {
                throw StoreError.unsupportedPredicate("a sort descriptor without a key path")
            }
            if let comparator = descriptor.stringComparator, comparator != .lexical {
                throw StoreError.unsupportedPredicate(
                    "sorting \(path) with \(comparator): only lexical string order is available in SQL")
            }
            keyPath = path
            ascending = descriptor.order == .forward
            if dialect == .postgreSQL { nulls = ascending ? " NULLS FIRST" : " NULLS LAST" }
        }
        let column = try Model.schema.requiredColumn(for: keyPath)
        return "\(alias).\(quote(column.name)) \(ascending ? "ASC" : "DESC")\(nulls)"
    }
}

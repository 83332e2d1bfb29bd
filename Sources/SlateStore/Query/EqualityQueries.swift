import Foundation

/// The SQL of descriptors made of `where(_:is:)` filters alone (no predicate, membership
/// list, order or search), by their shape: the model, the backend, the filtered key paths
/// in order and, on PostgreSQL, which values are nil (its text says `IS NULL` for those).
/// Such a descriptor's text follows from its shape; only the bound values differ.
///
/// It is the store's most common query (an object by name, a resource by id, the
/// occurrences of a series: a CalDAV GET makes three), and writing its SQL again — each
/// key path's column looked up, each test formatted and joined — cost about 25,000
/// instructions a query (callgrind), more than SQLite took to run it.
enum EqualityQueries {
    /// What a descriptor's text follows from, beside its model and backend (the store's key).
    struct Shape: Hashable, Sendable {
        let ordered: Bool
        let filters: FilterShape
    }

    /// What the text of a descriptor's equality filters follows from: the filtered key
    /// paths in order and, on PostgreSQL, which values are nil (written `IS NULL`; SQLite's
    /// `IS ?` takes a nil bound). Also what a keyed translation's kept filter text is
    /// reused for (`TranslationCache.FilterText`).
    struct FilterShape: Hashable, @unchecked Sendable {
        // `@unchecked`: key paths are immutable values; AnyKeyPath is not marked Sendable.
        let keyPaths: [AnyKeyPath]
        let nulls: [Bool]

        /// Nil when the descriptor has membership lists (written with their values' count).
        init?<Model>(_ descriptor: FetchDescriptor<Model>, dialect: SQLDialect) {
            guard descriptor.membershipFilters.isEmpty else { return nil }
            keyPaths = descriptor.equalityFilters.map(\.keyPath)
            nulls = dialect == .postgreSQL ? descriptor.equalityFilters.map(\.value.isNull) : []
        }
    }

    /// What a shape's queries share.
    struct Text: Sendable {
        let from: String
        let whereSQL: String
        let orderBy: String
        /// The column of each filter, in order (for `SelectQuery.equalities`).
        let columns: [String]
    }

    /// A program has a few dozen shapes.
    static let shared = KeptQueries<Shape, Text>(capacity: 512)

    /// The shape of `descriptor` when it is one this cache serves, else nil.
    static func shape<Model: PersistentModel>(of descriptor: FetchDescriptor<Model>, dialect: SQLDialect, ordered: Bool) -> Shape? {
        guard descriptor.predicate == nil, descriptor.filters.isEmpty, descriptor.sortBy.isEmpty,
              descriptor.searchText == nil, descriptor.translationKey == nil, !descriptor.equalityFilters.isEmpty,
              let filters = FilterShape(descriptor, dialect: dialect)
        else { return nil }
        return Shape(ordered: ordered, filters: filters)
    }
}

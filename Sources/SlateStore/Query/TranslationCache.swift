import Foundation
import Synchronization

/// Translated queries by their caller's key (`FetchDescriptor.translationKey`): a query
/// asked again — the same page of the same list — is not walked and written out again.
///
/// Walking a `#Predicate` tree costs far more than running the SQL it becomes (about
/// 100,000 instructions for three conditions, against 10,000 for the indexed query).
enum TranslationCache {
    /// What a `SelectQuery` is made of, without its model type.
    struct Parts: Sendable {
        let from: String
        /// The WHERE conditions, to be joined by AND.
        let conditions: [String]
        let arguments: [DatabaseValue]
        let orderBy: String
        /// Bound in ORDER BY (PostgreSQL's search rank), after `arguments`.
        let orderArguments: [DatabaseValue]
        /// The columns the predicates fix with `==` (see `SelectQuery.equalities`).
        let equalities: [String: DatabaseValue]?
        /// The whole WHERE text with the equality filters of the query first translated
        /// under the key (whose values the key need not name, so they are bound apart).
        var filterText: FilterText?
    }

    /// The WHERE text of `Parts` with equality filters of one shape, and their columns.
    struct FilterText: Sendable {
        let shape: EqualityQueries.FilterShape
        let whereSQL: String
        let columns: [String]
    }

    static let shared = KeptQueries<AnyHashable, Parts>(capacity: 1024)
}

/// Whatever was written out for a query, by its model, its backend and a key naming all
/// else its text depends on (`TranslationCache`, `EqualityQueries`). Beyond `capacity`
/// entries it starts over. The key's own type is kept (not boxed as `AnyHashable`): boxed,
/// a lookup of a CalDAV GET's three queries cost 3,000 instructions more each.
final class KeptQueries<QueryKey: Hashable, Value: Sendable>: Sendable {
    private struct Key: Hashable, @unchecked Sendable {
        // `@unchecked`: the caller's key is a value it gives up, never mutated here.
        let model: ObjectIdentifier
        /// The same query is different SQL on each backend (a process may hold both: `slate migrate`).
        let dialect: SQLDialect
        let key: QueryKey
    }

    private let capacity: Int
    private let entries = Mutex<[Key: Value]>([:])

    init(capacity: Int) { self.capacity = capacity }

    func value(of model: Any.Type, dialect: SQLDialect, key: QueryKey) -> Value? {
        entries.withLock { $0[Key(model: ObjectIdentifier(model), dialect: dialect, key: key)] }
    }

    func remember(_ value: Value, of model: Any.Type, dialect: SQLDialect, key: QueryKey) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[Key(model: ObjectIdentifier(model), dialect: dialect, key: key)] = value
        }
    }
}

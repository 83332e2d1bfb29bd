import Foundation
import Synchronization

/// Translated queries by their caller's key (`FetchDescriptor.translationKey`): a query
/// asked again — the same page of the same list — is not walked and written out again.
///
/// Walking a `#Predicate` tree costs far more than running the SQL it becomes (about
/// 100,000 instructions for three conditions, against 10,000 for the indexed query).
final class TranslationCache: Sendable {
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
    }

    private struct Key: Hashable, @unchecked Sendable {
        // `@unchecked`: the caller's key is a value (`Hashable`) it gives up, never mutated here.
        let model: ObjectIdentifier
        /// The same query is different SQL on each backend (a process may hold both: `slate migrate`).
        let dialect: SQLDialect
        let key: AnyHashable
    }

    /// Beyond this many, the cache starts over.
    static let capacity = 1024
    static let shared = TranslationCache()

    private let entries = Mutex<[Key: Parts]>([:])

    func parts(of model: Any.Type, dialect: SQLDialect, key: AnyHashable) -> Parts? {
        entries.withLock { $0[Key(model: ObjectIdentifier(model), dialect: dialect, key: key)] }
    }

    func remember(_ parts: Parts, of model: Any.Type, dialect: SQLDialect, key: AnyHashable) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[Key(model: ObjectIdentifier(model), dialect: dialect, key: key)] = parts
        }
    }
}

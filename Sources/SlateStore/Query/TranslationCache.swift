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
        let whereSQL: String
        let arguments: [DatabaseValue]
        let orderBy: String
    }

    private struct Key: Hashable, @unchecked Sendable {
        // `@unchecked`: the caller's key is a value (`Hashable`) it gives up, never mutated here.
        let model: ObjectIdentifier
        let key: AnyHashable
    }

    /// Beyond this many, the cache starts over.
    static let capacity = 1024
    static let shared = TranslationCache()

    private let entries = Mutex<[Key: Parts]>([:])

    func parts(of model: Any.Type, key: AnyHashable) -> Parts? {
        entries.withLock { $0[Key(model: ObjectIdentifier(model), key: key)] }
    }

    func remember(_ parts: Parts, of model: Any.Type, key: AnyHashable) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[Key(model: ObjectIdentifier(model), key: key)] = parts
        }
    }
}

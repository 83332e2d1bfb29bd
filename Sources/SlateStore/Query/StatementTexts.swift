import Foundation
import Synchronization

/// The SQL of statements written from a model's schema, by what they depend on: a
/// statement asked for again (the subtask count of one task, per request) is not
/// written out again. Writing one cost more than running it (callgrind: 32 string
/// appends, about 12,000 instructions, against 6,000 for the indexed query).
final class StatementTexts: Sendable {
    /// What a statement's text depends on.
    struct Key: Hashable, Sendable {
        let model: ObjectIdentifier
        let dialect: SQLDialect
        /// Which statement, such as "countChildren".
        let statement: String
        /// The columns it names.
        let columns: [String]
        /// How many values it binds in its `IN (…)` list.
        let count: Int

        init(_ model: Any.Type, _ dialect: SQLDialect, _ statement: String, columns: [String], count: Int) {
            self.model = ObjectIdentifier(model)
            self.dialect = dialect
            self.statement = statement
            self.columns = columns
            self.count = count
        }
    }

    /// Beyond this many, the texts kept start over.
    static let capacity = 1024
    static let shared = StatementTexts()

    private let texts = Mutex<[Key: String]>([:])

    /// The text kept for `key`, or the one `write` makes, kept. (A key of `AnyHashable`s
    /// cost more to hash than writing the text.)
    func text(for key: Key, write: () -> String) -> String {
        if let text = texts.withLock({ $0[key] }) { return text }
        let text = write()
        texts.withLock { texts in
            if texts.count >= Self.capacity { texts.removeAll(keepingCapacity: true) }
            texts[key] = text
        }
        return text
    }
}

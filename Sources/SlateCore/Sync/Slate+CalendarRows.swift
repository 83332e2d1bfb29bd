import Foundation
import SlateStore

extension Slate {
    /// This account's rows of `Model` with these ids, by id: read on the id alone, in chunks
    /// of 500, and kept only when `account` names this account.
    ///
    /// Not a `#Predicate` of `accountID == … && ids.contains(id)`: SQLite (no statistics)
    /// answers that from an index on the account, walking every row of the account for each
    /// chunk, so a multiget of 100 read the 12,000 task and body rows of its account and a
    /// PROPFIND of 10,000 objects 240,000 resource rows. `id IN (…)` is one lookup an id on
    /// the unique index.
    func accountRows<Model: PersistentModel>(_ type: Model.Type, ids: [UUID], account: KeyPath<Model, UUID>,
                                             in context: ModelContext) throws -> [UUID: Revisioned<Model>] {
        let accountID = self.accountID
        var rows: [UUID: Revisioned<Model>] = [:]
        rows.reserveCapacity(ids.count)
        for start in stride(from: 0, to: ids.count, by: 500) {
            for row in try context.revisioned(type, ids: Array(ids[start..<min(start + 500, ids.count)]))
            where row.model[keyPath: account] == accountID {
                rows[row.model.id] = row
            }
        }
        return rows
    }
}

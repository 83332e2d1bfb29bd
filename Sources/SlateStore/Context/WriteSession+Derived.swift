import Foundation

/// What a save did to the columns the full-text index and the count indexes are made from,
/// for one row (by `_pk`, which is also the search index's rowid): both are brought up to
/// date once, at the end of the save and in its transaction, from the first and the last
/// state of each row.
///
/// Triggers used to do it row by row. A trigger makes each INSERT a statement with a
/// savepoint, at which FTS5 writes its pending terms out as a new segment (and the
/// statement journal copies every page it touches): 100,000 rows took 2–3 times as long
/// to insert as without the index. Queued, the terms of a whole save are written together.
struct DerivedRow {
    /// The tracked values (`TableSchema.trackedPositions`) as the row was before the save
    /// first touched it, which is what the index holds for it; nil when it did not exist.
    var before: [DatabaseValue]?
    /// The tracked values after the save's last change to the row; nil when it is gone.
    var after: [DatabaseValue]?
}

extension WriteSession {
    /// Records a change to the row with rowid `pk`: `before` (read only the first time the
    /// save touches the row) and `after` are its tracked values, nil for absent.
    func noteDerived(_ table: TableSchema, pk: Int64, before: () throws -> [DatabaseValue]?, after: [DatabaseValue]?) rethrows {
        guard keepsDerived(table) else { return }
        try Self.note(pk, before: before, after: after, in: &derived[table.tableName, default: [:]])
    }

    private static func note(_ pk: Int64, before: () throws -> [DatabaseValue]?, after: [DatabaseValue]?,
                             in rows: inout [Int64: DerivedRow]) rethrows {
        if rows[pk] != nil {
            rows[pk]!.after = after
        } else {
            rows[pk] = DerivedRow(before: try before(), after: after)
        }
    }

    /// Whether saves keep `table`'s full-text and count indexes here. Only on SQLite: on
    /// PostgreSQL each row carries its own search document (`_search`, written with the row,
    /// see `WriteSession+Rows`) and counts are counted (see `ModelContext.fetchCount`).
    func keepsDerived(_ table: TableSchema) -> Bool {
        database.dialect == .sqlite && !table.trackedPositions.isEmpty
    }

    /// The rowid of the row the last INSERT made (SQLite; the derived indexes are keyed by it).
    var lastInsertedRowID: Int64 { sqlite?.lastInsertedRowID ?? 0 }

    /// The tracked values of a row given by all its values, in `table.columns` order.
    func tracked(_ table: TableSchema, values: [DatabaseValue]) -> [DatabaseValue] {
        table.trackedPositions.map { values[$0] }
    }

    /// The tracked values of a row given as an image (nil for nil).
    func tracked(_ table: TableSchema, row: Row?) -> [DatabaseValue]? {
        row.map { row in table.trackedPositions.map { row[table.columns[$0].name] } }
    }

    /// The stored row with `id`: its rowid, revision and tracked values (nil when absent).
    func storedTracked(_ table: TableSchema, id: DatabaseValue) throws -> (pk: Int64, revision: Int, values: [DatabaseValue])? {
        var found: (Int64, Int, [DatabaseValue])?
        try database.forEachRow(table.selectTrackedSQL, [id]) { statement in
            let values = (0..<Int32(table.trackedPositions.count)).map { statement.value(at: $0 + 2) }
            found = (statement.int64(at: 0), Int(statement.int64(at: 1)), values)
        }
        return found
    }

    /// Brings the full-text index and the count indexes of every table the save wrote up
    /// to date: the old text of each row that had some out, the new text in; each count
    /// moved by the rows that left or joined its key. Call once, after the last change.
    func applyDerivedChanges() throws {
        for (name, rows) in derived where !rows.isEmpty {
            guard let table = tables[name] else { continue }
            if !table.searchableColumns.isEmpty { try updateSearchIndex(table, rows) }
            if !table.countIndexes.isEmpty { try updateCounts(table, rows) }
        }
        derived.removeAll()
    }

    private func updateCounts(_ table: TableSchema, _ rows: [Int64: DerivedRow]) throws {
        for (index, positions) in zip(table.countIndexes, table.countPositions) {
            var deltas: [CountKey: Int] = [:]
            for row in rows.values {
                if let before = row.before { deltas[CountKey(positions.map { before[$0] }), default: 0] -= 1 }
                if let after = row.after { deltas[CountKey(positions.map { after[$0] }), default: 0] += 1 }
            }
            let name = DatabaseValue.text(table.storedName(of: index))
            let upsert = table.countUpsertSQL(index)
            for (key, delta) in deltas where delta != 0 {
                let count = try database.scalar(upsert, [name] + key.values + [.integer(Int64(delta))])
                if count == .integer(0) { try database.execute(table.countRemoveSQL(index), [name] + key.values) }
            }
        }
    }

    private func updateSearchIndex(_ table: TableSchema, _ rows: [Int64: DerivedRow]) throws {
        let positions = table.searchPositions
        // Compared and read at their positions, without an array per row: a bulk insert's
        // rows are all new, and their text is read back from the table below.
        func sameText(_ old: [DatabaseValue]?, _ new: [DatabaseValue]?) -> Bool {
            switch (old, new) {
            case (nil, nil): return true
            case (let old?, let new?): return positions.allSatisfy { old[$0] == new[$0] }
            default: return false
            }
        }
        var removed = 0
        for row in rows.values where row.before != nil && !sameText(row.before, row.after) { removed += 1 }
        if try rebuildsSearchIndex(table, removing: removed) { return }
        var added: [Int64] = []
        var low = Int64.max, high = Int64.min
        let delete = table.searchDeleteSQL
        for (pk, row) in rows where !sameText(row.before, row.after) {
            if let old = row.before { try database.execute(delete, [.integer(pk)] + positions.map { old[$0] }) }
            if row.after != nil {
                added.append(pk)
                low = min(low, pk)
                high = max(high, pk)
            }
        }
        guard !added.isEmpty else { return }
        // A bulk insert's rows have consecutive rowids: their text is read from the table
        // in one statement, as a hand-written loader would.
        if added.count > 1, high - low + 1 == Int64(added.count) {
            try database.execute(table.searchInsertRangeSQL, [.integer(low), .integer(high)])
            return
        }
        let insert = table.searchInsertSQL
        for pk in added {
            guard let new = rows[pk]?.after else { continue }
            try database.execute(insert, [.integer(pk)] + positions.map { new[$0] })
        }
    }

    /// Rebuilds the full-text index from the table when the save took more indexed rows out
    /// than the table still holds (undoing an import into an account with fewer tasks than
    /// it brought, most of all into an empty store), and says whether it did. The index keeps
    /// no text of its own (external content), so FTS5 can take a row out only by tokenising
    /// the text it was indexed with again ('delete'): about a quarter of the instructions of
    /// undoing an import went there. 'rebuild' empties the index and reads what the table
    /// holds now, so it costs the rows that stay, not the rows that go, and covers the save's
    /// other changes too. Below `minimumRebuild` rows the count is not worth reading.
    private func rebuildsSearchIndex(_ table: TableSchema, removing removed: Int) throws -> Bool {
        guard removed >= Self.minimumRebuild else { return false }
        // Counted up to `removed` rows only: a large table is not scanned to learn it is large.
        let kept = try database.scalar(
            "SELECT count(*) FROM (SELECT 1 FROM \(quote(table.tableName)) LIMIT ?)", [.integer(Int64(removed))])
        guard case .integer(let count)? = kept, count < removed else { return false }
        let fts = quote(table.ftsTableName)
        try database.execute("INSERT INTO \(fts)(\(fts)) VALUES ('rebuild')")
        return true
    }

    /// The fewest rows a save must take out of the full-text index before it considers a rebuild.
    static var minimumRebuild: Int { 256 }
}

/// A count index's key: its columns' values. A struct rather than the array itself: a
/// dictionary keyed by `[DatabaseValue]` made the runtime look up two conformances
/// (`Array: Hashable` and the element's), each a scan of every conformance record.
private struct CountKey: Hashable {
    let values: [DatabaseValue]
    init(_ values: [DatabaseValue]) { self.values = values }
}

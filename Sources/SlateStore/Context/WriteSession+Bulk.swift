import Foundation

// What a bulk write (an import) needs beyond a single save: numbers handed out without a
// query per row, and inserted rows recorded by id and digest instead of by image.
extension WriteSession {
    /// One more than the largest number in the column, within the row's partition when the
    /// table has one. Read once per session; numbers given explicitly later in the same
    /// session are taken into account (`noteSequenceNumbers`).
    func takeSequenceNumber(_ table: TableSchema, _ position: Int, partition: DatabaseValue?) throws -> Int64 {
        // A key of the values themselves: a string made of them (`DatabaseValue.description`
        // quotes text) cost more than the rest of the number's upkeep, for every row.
        let key = SequenceKey(table: table.tableName, position: position, partition: partition)
        if let next = nextSequence[key] {
            nextSequence[key] = next + 1
            return next
        }
        let name = quote(table.columns[position].name)
        let value: DatabaseValue?
        if let partition, let partitionPosition = table.partitionPosition {
            let owner = database.dialect.sameValue(quote(table.columns[partitionPosition].name), partition)
            value = try database.scalar(
                "SELECT COALESCE(MAX(\(name)), 0) + 1 FROM \(quote(table.tableName)) WHERE \(owner.sql)", owner.arguments)
        } else {
            value = try database.scalar("SELECT COALESCE(MAX(\(name)), 0) + 1 FROM \(quote(table.tableName))")
        }
        guard case .integer(let next)? = value else { return 1 }
        nextSequence[key] = next + 1
        return next
    }

    /// Forgets the cached next numbers of a table: a row written with its own number may
    /// be above them.
    func forgetSequenceNumbers(_ table: TableSchema) {
        guard !table.sequencePositions.isEmpty else { return }
        nextSequence = nextSequence.filter { $0.key.table != table.tableName }
    }

    /// Records an inserted row by id when the session records inserts that way; true when
    /// the row needs no image (inserted now, or earlier in this commit).
    func noteCreated(_ table: TableSchema, _ id: String, inserted: Bool, values: [DatabaseValue]) -> Bool {
        let key = table.tableName + "/" + id
        guard inserted ? createdSet.insert(key).inserted : createdSet.contains(key) else { return false }
        if inserted { created[table.tableName, default: []].append(id) }
        // The digest of what the row holds at the end of the commit (an insert then an update
        // in one commit: the update's values).
        createdDigests[key] = RowDigest.of(values)
        return true
    }

    /// The digests of the rows in `created`, in the same order, as 16 hex digits each.
    func createdDigestText(table: String) -> String {
        // One string built in place: `String(format:)` per row (Foundation's formatter) was half
        // of the instructions of importing 5,000 tasks (bench/import/callgrind).
        let ids = created[table] ?? []
        var text: [UInt8] = []
        text.reserveCapacity(ids.count * 17)
        for (index, id) in ids.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            RowDigest.appendHex(createdDigests[table + "/" + id] ?? 0, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Deletes the rows a bulk commit inserted (undo of an entry recorded by id), after
    /// checking that each is still as that commit (`revision`) left it: unchanged since, or
    /// changed and changed back (an edit undone), which its digest tells.
    func deleteCreated(table name: String, ids: [String], digests: [String], revision created: Int) throws {
        guard let table = tables[name] else {
            throw StoreError.invalidSchema("the undo log names table '\(name)', which the container does not know")
        }
        let tableName = quote(table.tableName)
        let partitionSQL = table.partitionName.map(quote) ?? "NULL"
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            let list: DatabaseValue = .text("[" + chunk.map { "\"\($0)\"" }.joined(separator: ",") + "]")
            let inChunk = "\"id\" \(database.dialect.inBoundTexts)"
            let unchanged = try database.scalar(
                "SELECT count(*) FROM \(tableName) WHERE \(inChunk) AND \"_rev\" = ?", [list, .integer(Int64(created))])
            if unchanged != .integer(Int64(chunk.count)) {
                let wanted = Dictionary(zip(chunk, digests[start..<min(start + 500, digests.count)]), uniquingKeysWith: { first, _ in first })
                let rows = try database.rows(
                    "SELECT \(table.columnNames.map(quote).joined(separator: ", ")), \"_rev\" FROM \(tableName) WHERE \(inChunk) AND \"_rev\" <> ?",
                    [list, .integer(Int64(created))])
                var found = 0
                for row in rows {
                    let id = String.fromDatabaseValue(row["id"]) ?? ""
                    let digest = RowDigest.hex(RowDigest.of(table.columnNames.map { row[$0] }))
                    guard wanted[id] == digest else {
                        throw StoreError.conflict(model: table.modelName, id: UUID(uuidString: id) ?? UUID(),
                                                  expectedRevision: created, actualRevision: Int.fromDatabaseValue(row["_rev"]) ?? 0)
                    }
                    found += 1
                }
                if case .integer(let count)? = unchanged, Int(count) + found != chunk.count {
                    // Deleted since by a write that undo did not record: as with an image, a conflict.
                    let present = try database.rows("SELECT \"id\" FROM \(tableName) WHERE \(inChunk)", [list])
                        .compactMap { String.fromDatabaseValue($0["id"]) }
                    let missing = Set(chunk).subtracting(present).first ?? chunk[0]
                    throw StoreError.conflict(model: table.modelName, id: UUID(uuidString: missing) ?? UUID(),
                                              expectedRevision: created, actualRevision: 0)
                }
            }
            // Each partition's tombstones and departures carry that partition's revision (taking
            // it runs the departures' pruning hook, `revision(for:)`). One statement each per
            // partition and chunk, not one per row.
            for row in try database.rows("SELECT DISTINCT \(partitionSQL) AS partition FROM \(tableName) WHERE \(inChunk)", [list]) {
                let partition = String.fromDatabaseValue(row["partition"])
                let owner = database.dialect.sameValue(partitionSQL, row["partition"])
                let revision = try revisionValue(for: partition)
                try database.execute(
                    "INSERT INTO _slate_tombstones(table_name, id, revision, partition) SELECT ?, \"id\", ?, \(partitionSQL) FROM \(tableName) WHERE \(inChunk) AND \(owner.sql) ON CONFLICT(table_name, id) DO UPDATE SET revision = excluded.revision, partition = excluded.partition",
                    [.text(table.tableName), revision, list] + owner.arguments)
                if let position = table.groupPosition {
                    // What `noteDeparture` records for each row: the group it left (NULL: none).
                    try database.execute(
                        "INSERT INTO _slate_departures(table_name, id, partition, group_value, revision) SELECT ?, \"id\", \(partitionSQL), \(quote(table.columns[position].name)), ? FROM \(tableName) WHERE \(inChunk) AND \(owner.sql)",
                        [.text(table.tableName), revision, list] + owner.arguments)
                }
            }
            if keepsDerived(table) {
                let columns = table.trackedPositions.map { ", " + quote(table.columns[$0].name) }.joined()
                try database.forEachRow("SELECT \"_pk\"\(columns) FROM \(tableName) WHERE \(inChunk)", [list]) { statement in
                    let values = (0..<Int32(table.trackedPositions.count)).map { statement.value(at: $0 + 1) }
                    noteDerived(table, pk: statement.int64(at: 0), before: { values }, after: nil)
                }
            }
            tombstoneTables[table.tableName] = true
            try database.execute("DELETE FROM \(tableName) WHERE \(inChunk)", [list])
            for id in chunk { record(table, .text(id), .deleted) }
        }
    }

}

/// Which sequence a cached next number belongs to (`WriteSession.nextSequence`): a table's
/// column (by position), within a partition when the table has one.
struct SequenceKey: Hashable {
    let table: String
    let position: Int
    let partition: DatabaseValue?
}

/// A 64-bit digest (FNV-1a) of a row's column values, to tell whether a row still holds
/// what a commit wrote without keeping the values themselves.
enum RowDigest {
    /// The digest of a row's values in the table's column order.
    static func of(_ values: [DatabaseValue]) -> UInt64 {
        // Byte by byte into the hash, nothing allocated: a small array per tag and per
        // number was a fifth of the digest's 12k instructions per imported task.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        func add(_ number: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { add(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
        }
        for value in values {
            switch value {
            case .null: add(0 as UInt8)
            case .integer(let value): add(1 as UInt8); add(UInt64(bitPattern: value))
            case .real(let value): add(2 as UInt8); add(value.bitPattern)
            case .text(let value):
                add(3 as UInt8)
                var value = value
                value.withUTF8 { bytes in
                    add(UInt64(bytes.count))
                    for byte in bytes { add(byte) }
                }
            case .blob(let value): add(4 as UInt8); add(UInt64(value.count)); for byte in value { add(byte) }
            }
        }
        return hash
    }

    /// A digest as 16 lower-case hex digits, as the undo entry stores it.
    static func hex(_ digest: UInt64) -> String {
        var text: [UInt8] = []
        appendHex(digest, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends a digest's 16 lower-case hex digits (`%016llx`).
    static func appendHex(_ digest: UInt64, to text: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        for shift in stride(from: 60, through: 0, by: -4) {
            text.append(digits.utf8Start[Int((digest >> UInt64(shift)) & 0xF)])
        }
    }
}

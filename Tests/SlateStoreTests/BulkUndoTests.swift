import Foundation
@testable import SlateStore
import Testing

/// A bulk write (an import) records the rows it inserted by id only: its undo entry stays
/// small, and undoing it deletes those rows unless they changed since.
@Suite struct BulkUndoTests {
    private func undoPayloadSize(_ container: ModelContainer) throws -> Int {
        try container.pool.read { database in
            guard case .integer(let size)? = try database.scalar("SELECT max(length(payload)) FROM _slate_undo") else { return 0 }
            return Int(size)
        }
    }

    @Test func insertsRecordedByIDUndoAsADeleteAndKeepTheEntrySmall() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let kept = Item(title: "Before the import", notes: "old")
        context.insert(kept)
        try context.save(undoLabel: "Add")

        context.recordsInsertsByID = true
        var updated = kept
        updated.notes = "changed by the import"
        context.update(updated)
        let notes = String(repeating: "n", count: 200)
        let inserted = (0..<5_000).map { Item(title: "Imported \($0)", notes: notes) }
        inserted.forEach(context.insert)
        try context.save(undoLabel: "Import 5000 items")
        // 5,000 ids (about 40 bytes each in the entry), not 5,000 row images (over 250 bytes each).
        #expect(try undoPayloadSize(container) < 5_000 * 60)

        let undone = try #require(try context.undo())
        #expect(undone.label == "Import 5000 items")
        #expect(undone.commit.changes(of: Item.self).deleted.count == 5_000)
        #expect(try context.fetch(FetchDescriptor<Item>()) == [kept], "the update is reverted too")
        #expect(try context.canRedo() == false, "an import's undo cannot be redone: import the file again")
        #expect(try context.changes(of: Item.self, since: 0).deleted.count == 5_000, "tombstones for sync clients")
    }

    @Test func undoRefusesWhenAnInsertedRowChangedSince() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.recordsInsertsByID = true
        let items = (0..<3).map { Item(title: "Imported \($0)") }
        items.forEach(context.insert)
        try context.save(undoLabel: "Import 3 items")

        let other = ModelContext(container, undo: false)
        var edited = items[1]
        edited.title = "Edited after the import"
        other.update(edited)
        try other.save()

        #expect(throws: StoreError.self) { try context.undo() }
        #expect(try context.fetchCount(FetchDescriptor<Item>()) == 3, "nothing deleted")
        #expect(try context.canUndo(), "the entry stays for a later attempt")
    }

    @Test func undoRefusesWhenAnInsertedRowWasDeletedUnrecorded() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.recordsInsertsByID = true
        let items = (0..<3).map { Item(title: "Imported \($0)") }
        items.forEach(context.insert)
        try context.save(undoLabel: "Import 3 items")
        let other = ModelContext(container, undo: false)
        other.delete(items[2])
        try other.save()
        let error = #expect(throws: StoreError.self) { try context.undo() }
        if case .conflict(_, let id, _, _)? = error { #expect(id == items[2].id) } else { Issue.record("not a conflict: \(String(describing: error))") }
        #expect(try context.fetchCount(FetchDescriptor<Item>()) == 2, "nothing deleted")
    }

    @Test func anEditThatWasUndoneDoesNotBlockTheImportsUndo() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.recordsInsertsByID = true
        let item = Item(title: "Imported", rank: 3, score: 1.5, due: Date(timeIntervalSinceReferenceDate: 812_345_678.5), labels: ["a"])
        context.insert(item)
        try context.save(undoLabel: "Import 1 item")
        context.recordsInsertsByID = false
        var edited = item
        edited.title = "Edited"
        context.update(edited)
        try context.save(undoLabel: "Edit")
        #expect(try context.undo()?.label == "Edit")
        #expect(try context.undo()?.label == "Import 1 item")
        #expect(try context.fetchCount(FetchDescriptor<Item>()) == 0)
    }

    /// The undo entry's digests are written by hand now: the same 16 digits `%016llx` gave,
    /// so that an entry written before the change still matches the rows it names.
    @Test func digestsAreWrittenAsBefore() {
        for digest: UInt64 in [0, 1, 0xF, 0xABCDEF, 0x0123_4567_89AB_CDEF, 0xCBF2_9CE4_8422_2325, .max] {
            #expect(RowDigest.hex(digest) == String(format: "%016llx", digest))
        }
    }

    /// The digest of a row is computed without allocating now: the same FNV-1a over the
    /// same bytes (a tag, then little-endian numbers and lengths), so that an undo entry
    /// written before still matches. The figure is FNV-1a computed apart (Python) over them.
    @Test func rowDigestIsTheSameAsBefore() {
        let row: [DatabaseValue] = [.null, .integer(-42), .real(1.5), .text("Café ☕"), .blob(Data([1, 2, 255]))]
        #expect(RowDigest.hex(RowDigest.of(row)) == "cd3e73908a090f6c")
        #expect(RowDigest.of([.text("a")]) != RowDigest.of([.text("b")]))
    }
}

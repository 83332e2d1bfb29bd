import Foundation
@testable import SlateStore
import TestDatabases
import Testing

// `ModelContext.values(_:ids:partition:)` reads one column of the rows with the given ids
// in one partition: the same values as whole models, nothing of another partition, and
// the same answer whether it reads the partition whole or looks the ids up.

@Suite struct ColumnValuesTests {
    /// Ana's 40 memos and Ben's 20, saved.
    func filled() throws -> (context: ModelContext, ana: [Memo], ben: [Memo]) {
        let context = ModelContext(try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration()))
        let ana = UUID(), ben = UUID()
        let anas = (0..<40).map { Memo(ownerID: ana, text: "Ana \($0)") }
        let bens = (0..<20).map { Memo(ownerID: ben, text: "Ben \($0)") }
        (anas + bens).forEach(context.insert)
        try context.save()
        return (context, anas, bens)
    }

    func texts(_ memos: some Sequence<Memo>) -> [UUID: String] {
        Dictionary(uniqueKeysWithValues: memos.map { ($0.id, $0.text) })
    }

    @Test func aFewIdsAreLookedUpAndOnlyThoseComeBack() throws {
        let (context, anas, _) = try filled()
        let wanted = Array(anas.prefix(5))
        let read = try context.values(\Memo.text, ids: wanted.map(\.id), partition: anas[0].ownerID)
        #expect(read == texts(wanted))
    }

    @Test func mostOfThePartitionIsReadWholeAndStillOnlyTheIdsAskedFor() throws {
        let (context, anas, _) = try filled()
        let wanted = Array(anas.dropLast(3))
        #expect(try context.values(\Memo.text, ids: wanted.map(\.id), partition: anas[0].ownerID) == texts(wanted))
        #expect(try context.values(\Memo.text, ids: anas.map(\.id), partition: anas[0].ownerID) == texts(anas))
        // More ids than are looked up without counting the partition first: read whole.
        let ana = anas[0].ownerID
        let many = (0..<(ModelContext.lookupsWithoutCount + 100)).map { Memo(ownerID: ana, text: "More \($0)") }
        many.forEach(context.insert)
        try context.save()
        let most = Array((anas + many).dropFirst(7))
        #expect(most.count > ModelContext.lookupsWithoutCount)
        #expect(try context.values(\Memo.text, ids: most.map(\.id), partition: ana) == texts(most))
    }

    @Test func eachValueComesWithItsRowsRevisionBothWays() throws {
        let (context, filled, bens) = try filled()
        var anas = filled
        let ana = anas[0].ownerID
        anas[3].text = "Ana 3, edited"
        context.update(anas[3])
        try context.save()
        let many = (0..<(ModelContext.lookupsWithoutCount + 50)).map { Memo(ownerID: ana, text: "More \($0)") }
        many.forEach(context.insert)
        try context.save()
        for wanted in [Array(anas.prefix(5)), anas + many] {
            let ids = wanted.map(\.id) + [bens[0].id]
            let read = try context.revisionedValues(\Memo.text, ids: ids, partition: ana)
            let whole = Dictionary(uniqueKeysWithValues: try context.revisioned(Memo.self, ids: wanted.map(\.id)).map { ($0.model.id, $0) })
            #expect(read.count == wanted.count)
            for (id, value) in read {
                #expect(value.value == whole[id]?.model.text && value.revision == whole[id]?.revision)
            }
            #expect(read[anas[3].id]?.revision != read[anas[2].id]?.revision, "the edited row's revision is its own")
        }
    }

    @Test func aColumnOfTheRowsAPredicateFindsComesInItsOrder() throws {
        let (context, anas, _) = try filled()
        let ana = anas[0].ownerID
        let chosen = ["Ana 12", "Ana 3", "Ana 30", "nobody's"]
        let descriptor = FetchDescriptor<Memo>(sortBy: [SortDescriptor(\.text, order: .reverse)]).matching(\.ownerID, is: ana)
            .matching(\.text, isIn: chosen)
        let read = try context.values(\Memo.text, matching: descriptor)
        #expect(read.map(\.value) == ["Ana 30", "Ana 3", "Ana 12"])
        #expect(read.map(\.id) == (try context.fetch(descriptor)).map(\.id))
    }

    @Test func anotherPartitionsRowsAreNeverRead() throws {
        let (context, anas, bens) = try filled()
        let ana = anas[0].ownerID, ben = bens[0].ownerID
        // Ben's ids asked of Ana's partition, both ways (few ids, and many).
        #expect(try context.values(\Memo.text, ids: [bens[0].id], partition: ana).isEmpty)
        #expect(try context.values(\Memo.text, ids: bens.map(\.id), partition: ana).isEmpty)
        let mixed = anas.prefix(2).map(\.id) + bens.map(\.id)
        #expect(try context.values(\Memo.text, ids: mixed, partition: ben) == texts(bens))
        #expect(try context.values(\Memo.text, ids: mixed, partition: ana) == texts(anas.prefix(2)))
        #expect(try context.values(\Memo.text, ids: [anas[0].id, bens[0].id], partition: ana) == texts([anas[0]]))
    }

    @Test func idsOfNoRowAndNoIdsGiveNothing() throws {
        let (context, anas, _) = try filled()
        let ana = anas[0].ownerID
        #expect(try context.values(\Memo.text, ids: [], partition: ana).isEmpty)
        #expect(try context.values(\Memo.text, ids: [UUID(), UUID()], partition: ana).isEmpty)
    }

    @Test func moreIdsThanOneStatementBindsAreAllRead() throws {
        let context = ModelContext(try ModelContainer(for: [Memo.self], configuration: TestDatabase.configuration()))
        let ana = UUID()
        let memos = (0..<5_200).map { Memo(ownerID: ana, text: "Ana \($0)") }
        memos.forEach(context.insert)
        try context.save()
        // 1,200 of 5,200 rows: looked up by id, in several statements.
        let wanted = Array(memos[1_000..<2_200])
        #expect(try context.values(\Memo.text, ids: wanted.map(\.id), partition: ana) == texts(wanted))
    }

    /// A column that is not text takes the generic form; text has a form of its own.
    @Test func aColumnOfAnotherTypeReadsTheSameRowsAsText() throws {
        let (context, anas, bens) = try filled()
        let ana = anas[0].ownerID
        let owners = { (memos: [Memo]) in Dictionary(uniqueKeysWithValues: memos.map { ($0.id, $0.ownerID) }) }
        for wanted in [Array(anas.prefix(3)), anas] {
            let ids = wanted.map(\.id) + bens.prefix(2).map(\.id)
            let read: [UUID: UUID] = try context.values(\Memo.ownerID, ids: ids, partition: ana)
            #expect(read == owners(wanted))
            #expect(Set(read.keys) == Set(try context.values(\Memo.text, ids: ids, partition: ana).keys))
        }
    }

    @Test func aKeyPathThatIsNotAColumnIsRefused() throws {
        let (context, anas, _) = try filled()
        #expect(throws: StoreError.self) { _ = try context.values(\Memo.text.count, ids: [anas[0].id], partition: anas[0].ownerID) }
    }

    /// A row whose optional id is nil or set: the specialised reading of an optional id
    /// column gives what the generic one gives.
    @Test func anOptionalIdColumnReadsAsTheGenericFormReadsIt() throws {
        let container = try ModelContainer(for: [Reply.self], configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let ana = UUID(), ben = UUID()
        let replies = (0..<6).map { Reply(ownerID: ana, parentID: $0.isMultiple(of: 2) ? nil : UUID()) } + [Reply(ownerID: ben, parentID: UUID())]
        replies.forEach(context.insert)
        try context.save()
        func generic<Value: DatabaseValueConvertible>(_ keyPath: KeyPath<Reply, Value>) throws -> [UUID: (value: Value, revision: Int)] {
            try context.revisionedValues(keyPath, ids: replies.map(\.id), partition: ana)
        }
        let specialised = try context.revisionedValues(\Reply.parentID, ids: replies.map(\.id), partition: ana)
        let general = try generic(\Reply.parentID)
        #expect(specialised.count == 6 && general.count == 6, "only Ana's rows")
        for reply in replies.prefix(6) {
            #expect(specialised[reply.id]?.value == reply.parentID && specialised[reply.id]?.value == general[reply.id]?.value)
            #expect(specialised[reply.id]?.revision == general[reply.id]?.revision)
        }
    }
}

/// A row with an optional id (for `ColumnValuesTests`).
struct Reply: PersistentModel, Equatable {
    var id = UUID()
    var ownerID: UUID
    var parentID: UUID?

    static let schema = ModelSchema<Reply>(
        table: "replies", columns: [.column(\.ownerID, "ownerID"), .column(\.parentID, "parentID")], partition: "ownerID")
}

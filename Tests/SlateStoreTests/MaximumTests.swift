import Foundation
import Testing

@testable import SlateStore

/// `ModelContext.maximum(_:_:)` against the largest value of the models `fetch` returns for
/// the same descriptor, on the suite's backend (PostgreSQL in pg-test).
@Suite struct MaximumTests {
    @Test func theLargestValueOfTheMatchingRows() throws {
        let (context, projects) = try filledItems(projects: 3, unassigned: { $0 % 7 == 0 })
        var descriptors: [FetchDescriptor<Item>] = [
            FetchDescriptor(),
            FetchDescriptor(predicate: #Predicate { !$0.isDone }),
            FetchDescriptor().matching(\.projectID, is: projects[1]),
            FetchDescriptor().matching(\.projectID, is: nil),
            FetchDescriptor(predicate: #Predicate { $0.rank < 3 }).matching(\.projectID, is: projects[2]),
        ]
        // The order, limit and offset of a descriptor do not change its maximum.
        var paged = FetchDescriptor<Item>(sortBy: [SortDescriptor(\.rank)])
        paged.fetchLimit = 2
        paged.fetchOffset = 1
        descriptors.append(paged)
        for descriptor in descriptors {
            var all = descriptor
            all.fetchLimit = nil
            all.fetchOffset = nil
            let models = try context.fetch(all)
            #expect(try context.maximum(\.rank, descriptor) == models.map(\.rank).max())
            #expect(try context.maximum(\.title, descriptor) == models.map(\.title).max())
        }
    }

    @Test func noRowOrOnlyNilsGiveNil() throws {
        let context = ModelContext(try makeContainer())
        #expect(try context.maximum(\.rank, FetchDescriptor<Item>()) == nil)
        let early = Date(timeIntervalSinceReferenceDate: 1_000)
        let late = Date(timeIntervalSinceReferenceDate: 9_000)
        context.insert(Item(title: "undated"))
        try context.save()
        #expect(try context.maximum(\.due, FetchDescriptor<Item>()) == nil)
        context.insert(Item(title: "early", due: early))
        context.insert(Item(title: "late", due: late))
        try context.save()
        #expect(try context.maximum(\.due, FetchDescriptor<Item>()) == late)
        #expect(try context.maximum(\.due, FetchDescriptor<Item>().matching(\.title, is: "early")) == early)
        #expect(try context.maximum(\.rank, FetchDescriptor<Item>().matching(\.title, is: "nobody")) == nil)
    }

    @Test func aKeyPathThatIsNotAColumnIsRefused() throws {
        let context = ModelContext(try makeContainer())
        #expect(throws: StoreError.self) { _ = try context.maximum(\.titleLength, FetchDescriptor<Item>()) }
    }
}

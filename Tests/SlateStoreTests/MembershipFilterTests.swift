import Foundation
@testable import SlateStore
import Testing

// `FetchDescriptor.where(_:isIn:)` finds exactly the rows `values.contains(column)` in a
// `#Predicate` finds (nil in the list or not, an empty list), combines with the other
// conditions, and is one `IN` list of bound values.

@Suite struct MembershipFilterTests {
    func filled() throws -> (ModelContext, [UUID]) { try filledItems(projects: 3, unassigned: { $0 % 4 == 3 }) }

    @Test func theSameRowsAsContainsInAPredicate() throws {
        let (context, projects) = try filled()
        let lists: [[UUID?]] = [[], [projects[0]], [projects[0], projects[2]], [nil], [projects[1], nil], projects + [nil], [UUID()]]
        for list in lists {
            var filtered = FetchDescriptor<Item>(sortKeys: [.ascending(\.title)])
            filtered.where(\.projectID, isIn: list)
            let predicated = FetchDescriptor<Item>(predicate: #Predicate { list.contains($0.projectID) }, sortKeys: [.ascending(\.title)])
            let expected = try context.fetch(predicated).map(\.title)
            #expect(try context.fetch(filtered).map(\.title) == expected, "\(list)")
            #expect(try context.fetchCount(filtered) == expected.count)
        }
        let titles = ["Item 3", "Item 4", "Item 5", "Item 29", "No such item"]
        let done = FetchDescriptor<Item>(predicate: #Predicate { $0.rank >= 1 }).matching(\.title, isIn: titles).matching(\.isDone, is: false)
        let both = FetchDescriptor<Item>(predicate: #Predicate { $0.rank >= 1 && titles.contains($0.title) && $0.isDone == false })
        #expect(try context.fetch(done).map(\.title).sorted() == (try context.fetch(both)).map(\.title).sorted())
        #expect(try context.fetch(done).map(\.title).sorted() == ["Item 29", "Item 5"])
    }

    @Test func theSQLIsOneListOfBoundValues() throws {
        var descriptor = FetchDescriptor<Item>()
        descriptor.where(\.rank, isIn: [1, 3])
        descriptor.where(\.projectID, isIn: [UUID?.none])
        descriptor.where(\.title, isIn: [String]())
        for dialect in [SQLDialect.sqlite, .postgreSQL] {
            let query = try SelectQuery(descriptor, dialect: dialect)
            #expect(query.whereSQL == #" WHERE (t."rank" IN (?, ?)) AND (t."projectID" IS NULL) AND (1 = 0)"#)
            #expect(query.arguments == [.integer(1), .integer(3)])
            // A count index cannot answer a list: the count is read with SQL.
            #expect(query.equalities == nil)
        }
    }
}

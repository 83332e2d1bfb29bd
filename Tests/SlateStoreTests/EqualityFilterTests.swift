import Foundation
@testable import SlateStore
import Testing

// `FetchDescriptor.where(_:is:)` finds exactly the rows the same `==` in a `#Predicate`
// finds (nil included), combines with predicates, and a count it fixes is read from a
// count index.

@Suite struct EqualityFilterTests {
    func filled() throws -> (ModelContext, [UUID]) { try filledItems(projects: 2, unassigned: { $0 % 3 == 2 }) }

    @Test func theSameRowsAsThePredicate() throws {
        let (context, projects) = try filled()
        for project in projects.map(Optional.some) + [nil] {
            for done in [false, true] {
                var filtered = FetchDescriptor<Item>(sortKeys: [.ascending(\.title)])
                filtered.where(\.projectID, is: project)
                filtered.where(\.isDone, is: done)
                let predicated = FetchDescriptor<Item>(
                    predicate: #Predicate { $0.projectID == project && $0.isDone == done }, sortKeys: [.ascending(\.title)])
                #expect(try context.fetch(filtered).map(\.title) == (try context.fetch(predicated).map(\.title)))
                #expect(try context.fetchCount(filtered) == (try context.fetch(predicated).count))
            }
        }
        var level = FetchDescriptor<Item>()
        level.where(\.level, is: .high)
        level.filters = [#Predicate { $0.rank >= 2 }]
        let high = Item.Level.high
        let predicated = FetchDescriptor<Item>(predicate: #Predicate { $0.level == high && $0.rank >= 2 })
        #expect(try context.fetch(level).map(\.title).sorted() == (try context.fetch(predicated)).map(\.title).sorted())
    }

    @Test func theSQLIsAnEqualityTheIndexCanSeek() throws {
        var descriptor = FetchDescriptor<Item>()
        descriptor.where(\.projectID, is: nil)
        descriptor.where(\.rank, is: 3)
        let query = try SelectQuery(descriptor)
        #expect(query.whereSQL == #" WHERE (t."projectID" IS ?) AND (t."rank" IS ?)"#)
        #expect(query.arguments == [.null, .integer(3)])
        #expect(query.equalities == ["projectID": .null, "rank": .integer(3)])
        // PostgreSQL's `IS NOT DISTINCT FROM` cannot use an index: `=`, or `IS NULL` for nil.
        let server = try SelectQuery(descriptor, dialect: .postgreSQL)
        #expect(server.whereSQL == #" WHERE (t."projectID" IS NULL) AND (t."rank" = ?)"#)
        #expect(server.arguments == [.integer(3)])
    }

    @Test func aColumnFixedToTwoValuesMatchesNothing() throws {
        let (context, projects) = try filled()
        var descriptor = FetchDescriptor<Item>()
        descriptor.where(\.projectID, is: projects[0])
        descriptor.where(\.isDone, is: false)
        descriptor.where(\.isDone, is: true)
        #expect(try context.fetchCount(descriptor) == 0)
        #expect(try context.fetch(descriptor).isEmpty)
    }
}

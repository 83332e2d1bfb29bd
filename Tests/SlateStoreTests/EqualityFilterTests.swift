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

    /// A descriptor of `where(_:is:)` filters alone is written once per shape
    /// (`EqualityQueries`); the next of that shape, with other values, is the same query
    /// as writing it out: text, bound values (none for a nil on PostgreSQL), fixed columns.
    @Test func aShapeWrittenBeforeIsTheSameQueryAsWritingItAgain() throws {
        func descriptor(_ project: UUID?, _ ranks: [Int]) -> FetchDescriptor<Item> {
            var descriptor = FetchDescriptor<Item>()
            descriptor.where(\.projectID, is: project)
            for rank in ranks { descriptor.where(\.rank, is: rank) }
            return descriptor
        }
        for dialect in [SQLDialect.sqlite, .postgreSQL] {
            for ordered in [true, false] {
                for project in [UUID(), nil] as [UUID?] {
                    // The second and third have the first's shape; the third fixes a column
                    // to two values (no fixed columns then), as the first does not.
                    let descriptors = [descriptor(project, [3]), descriptor(project.map { _ in UUID() }, [7]),
                                       descriptor(project, [1, 2]), descriptor(project, [5, 5])]
                    for descriptor in descriptors + descriptors {
                        let kept = try SelectQuery(descriptor, dialect: dialect, ordered: ordered)
                        let written = try SelectQuery(translating: descriptor, dialect: dialect, ordered: ordered)
                        #expect(kept.from == written.from && kept.whereSQL == written.whereSQL && kept.orderBy == written.orderBy)
                        #expect(kept.arguments == written.arguments, "\(dialect) \(project == nil ? "nil" : "a project")")
                        #expect(kept.equalities == written.equalities)
                    }
                }
            }
        }
        let shape = try #require(EqualityQueries.shape(of: descriptor(nil, [3]), dialect: .postgreSQL, ordered: true))
        #expect(EqualityQueries.shared.value(of: Item.self, dialect: .postgreSQL, key: shape) != nil, "the shape was kept")
    }

    @Test func onlyEqualityFiltersAloneAreKeptByShape() {
        var sorted = FetchDescriptor<Item>(sortKeys: [.ascending(\.title)])
        sorted.where(\.rank, is: 1)
        var searched = FetchDescriptor<Item>()
        searched.where(\.rank, is: 1)
        searched.searchText = "a"
        var predicated = FetchDescriptor<Item>(predicate: #Predicate { $0.rank > 1 })
        predicated.where(\.rank, is: 1)
        for descriptor in [sorted, searched, predicated, FetchDescriptor<Item>()] {
            #expect(EqualityQueries.shape(of: descriptor, dialect: .sqlite, ordered: true) == nil)
        }
    }
}

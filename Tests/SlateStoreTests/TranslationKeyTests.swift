import Foundation
@testable import SlateStore
import Testing

// A descriptor with a `translationKey` is translated once: the next under that key reuses
// the predicate's SQL, and the equality filters' text when they fix the same columns (and,
// on PostgreSQL, the same nils), with the new values bound. What it runs must be what a
// fresh translation runs: text, arguments and the columns it fixes (which decide whether a
// count is read from a count index).

@Suite struct TranslationKeyTests {
    /// Equality filters on the project and the completion, after an optional predicate
    /// (rank above `floor`) and before an optional membership list.
    func descriptor(key: AnyHashable, floor: Int?, project: UUID?, done: [Bool], levels: [Item.Level]? = nil) -> FetchDescriptor<Item> {
        var descriptor = FetchDescriptor<Item>(sortKeys: [.ascending(\.title)])
        if let floor { descriptor.predicate = #Predicate { $0.rank >= floor } }
        descriptor.where(\.projectID, is: project)
        for value in done { descriptor.where(\.isDone, is: value) }
        if let levels { descriptor.where(\.level, isIn: levels) }
        descriptor.translationKey = key
        return descriptor
    }

    func fresh(_ descriptor: FetchDescriptor<Item>) -> FetchDescriptor<Item> {
        var fresh = descriptor
        fresh.translationKey = nil
        return fresh
    }

    /// Each list is one key's queries in order: the first is translated and kept with its
    /// filters' text, the others reuse it when their filters have its shape.
    func scenarios(floor: Int?) -> [[FetchDescriptor<Item>]] {
        func key() -> AnyHashable { AnyHashable("translation-key-\(UUID())") }
        let (a, b, c) = (key(), key(), key())
        return [
            // A project first: other projects, no project (on PostgreSQL another shape),
            // other columns, a column fixed twice, a membership list.
            [descriptor(key: a, floor: floor, project: UUID(), done: [false]),
             descriptor(key: a, floor: floor, project: UUID(), done: [true]),
             descriptor(key: a, floor: floor, project: nil, done: [true]),
             descriptor(key: a, floor: floor, project: UUID(), done: []),
             descriptor(key: a, floor: floor, project: UUID(), done: [true, false]),
             descriptor(key: a, floor: floor, project: nil, done: [false], levels: [.high, .low]),
             descriptor(key: a, floor: floor, project: UUID(), done: [false])],
            // No project first: on PostgreSQL its kept text says IS NULL and binds nothing for it.
            [descriptor(key: b, floor: floor, project: nil, done: [true]),
             descriptor(key: b, floor: floor, project: nil, done: [false]),
             descriptor(key: b, floor: floor, project: UUID(), done: [false])],
            // A column fixed twice first: the kept text's queries fix no column when the two
            // values differ, and that column when they agree.
            [descriptor(key: c, floor: floor, project: UUID(), done: [true, false]),
             descriptor(key: c, floor: floor, project: UUID(), done: [false, false]),
             descriptor(key: c, floor: floor, project: nil, done: [true, true])],
        ]
    }

    @Test(arguments: [nil, 1] as [Int?])
    func aKeptQueryIsTheQueryWrittenAfresh(floor: Int?) throws {
        for dialect in [SQLDialect.sqlite, .postgreSQL] {
            for ordered in [true, false] {
                var fixedSome = false
                for descriptors in scenarios(floor: floor) {
                    for descriptor in descriptors + descriptors {
                        let kept = try SelectQuery(descriptor, dialect: dialect, ordered: ordered)
                        let written = try SelectQuery(translating: fresh(descriptor), dialect: dialect, ordered: true)
                        #expect(kept.from == written.from && kept.whereSQL == written.whereSQL)
                        #expect(kept.orderBy == written.orderBy, "a keyed translation is kept with its order")
                        #expect(kept.arguments == written.arguments, "\(dialect)")
                        #expect(kept.equalities == written.equalities, "\(dialect)")
                        if written.equalities?.isEmpty == false { fixedSome = true }
                    }
                    // The first query's filters were kept with its translation (asked again
                    // at once: the cache is shared and starts over when full).
                    let first = descriptors[0]
                    _ = try SelectQuery(first, dialect: dialect, ordered: ordered)
                    let kept = try #require(TranslationCache.shared.value(of: Item.self, dialect: dialect, key: first.translationKey!))
                    #expect(kept.filterText?.columns == ["projectID"] + first.equalityFilters.dropFirst().map { _ in "isDone" })
                }
                #expect(fixedSome == (floor == nil), "without a predicate the filters' columns are fixed, and compared")
            }
        }
    }

    @Test(arguments: [nil, 2] as [Int?])
    func aKeptQueryFindsAndCountsTheRowsOfItsOwnValues(floor: Int?) throws {
        let (context, projects) = try filledItems(projects: 2, unassigned: { $0 % 3 == 2 })
        let key = AnyHashable("translation-key-\(UUID())")
        for project in projects.map(Optional.some) + [nil] + projects.map(Optional.some) {
            for done in [[false], [true], [], [true, false], [true, true]] {
                let keyed = descriptor(key: key, floor: floor, project: project, done: done)
                #expect(try context.fetch(keyed).map(\.title) == (try context.fetch(fresh(keyed)).map(\.title)))
                // Without a predicate, the count of a project and a completion is read from
                // the count index (`by_project_done`): the fixed columns must be right.
                #expect(try context.fetchCount(keyed) == (try context.fetch(fresh(keyed)).count))
            }
        }
        let wanted = try context.fetch(fresh(descriptor(key: key, floor: floor, project: projects[1], done: [true])))
        #expect(!wanted.isEmpty, "the data has such rows, so the comparisons above compared something")
    }
}

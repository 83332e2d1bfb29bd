import Foundation
@testable import SlateStore
import Testing

// A descriptor with a `translationKey` is translated once: the next under that key reuses
// the predicate's SQL, and the equality filters' text when they fix the same columns, with
// the new values bound. What it runs must be what a fresh translation runs.

@Suite struct TranslationKeyTests {
    /// Rank above `floor` (the predicate the key names), then equality filters.
    func descriptor(key: AnyHashable, floor: Int, project: UUID?, done: [Bool], levels: [Item.Level]? = nil) -> FetchDescriptor<Item> {
        var descriptor = FetchDescriptor<Item>(predicate: #Predicate { $0.rank >= floor }, sortKeys: [.ascending(\.title)])
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

    @Test func aKeptQueryIsTheQueryWrittenAfresh() throws {
        for dialect in [SQLDialect.sqlite, .postgreSQL] {
            for ordered in [true, false] {
                let key = AnyHashable("translation-key-\(UUID())")
                // The same columns with other values (nil among them), then other columns,
                // a column fixed twice, a membership list, and the first shape again.
                let descriptors = [
                    descriptor(key: key, floor: 1, project: UUID(), done: [false]),
                    descriptor(key: key, floor: 1, project: UUID(), done: [true]),
                    descriptor(key: key, floor: 1, project: nil, done: [true]),
                    descriptor(key: key, floor: 1, project: UUID(), done: []),
                    descriptor(key: key, floor: 1, project: UUID(), done: [true, false]),
                    descriptor(key: key, floor: 1, project: nil, done: [false], levels: [.high, .low]),
                    descriptor(key: key, floor: 1, project: UUID(), done: [false]),
                ]
                for descriptor in descriptors + descriptors {
                    let kept = try SelectQuery(descriptor, dialect: dialect, ordered: ordered)
                    let written = try SelectQuery(translating: fresh(descriptor), dialect: dialect, ordered: true)
                    #expect(kept.from == written.from && kept.whereSQL == written.whereSQL)
                    #expect(kept.orderBy == written.orderBy, "a keyed translation is kept with its order")
                    #expect(kept.arguments == written.arguments, "\(dialect)")
                    #expect(kept.equalities == written.equalities)
                }
                let kept = try #require(TranslationCache.shared.value(of: Item.self, dialect: dialect, key: key))
                #expect(kept.filterText?.columns == ["projectID", "isDone"], "kept with the first query's filters")
            }
        }
    }

    @Test func aKeptQueryFindsTheRowsOfItsOwnValues() throws {
        let (context, projects) = try filledItems(projects: 2, unassigned: { $0 % 3 == 2 })
        let key = AnyHashable("translation-key-\(UUID())")
        for project in projects.map(Optional.some) + [nil] + projects.map(Optional.some) {
            for done in [[false], [true], [], [true, false]] {
                let keyed = descriptor(key: key, floor: 2, project: project, done: done)
                #expect(try context.fetch(keyed).map(\.title) == (try context.fetch(fresh(keyed)).map(\.title)))
                #expect(try context.fetchCount(keyed) == (try context.fetchCount(fresh(keyed))))
            }
        }
        let wanted = try context.fetch(fresh(descriptor(key: key, floor: 2, project: projects[1], done: [true])))
        #expect(!wanted.isEmpty, "the data has such rows, so the comparisons above compared something")
    }
}

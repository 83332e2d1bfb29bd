import Foundation
import Testing

@testable import SlateStore

/// The differential oracle: every supported predicate construct returns exactly the rows
/// that `Predicate.evaluate` returns on the same randomised rows, nils included.
@Suite struct PredicateOracleTests {
    static let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Rows drawn from small pools so that equalities, ties and nils all occur.
    static func randomItems(count: Int, seed: UInt64) -> [Item] {
        var generator = SeededGenerator(seed: seed)
        let titles = ["Woody", "woody", "Buzz", "théme", "", "Ab", "abc", "Zebra", "élan", "Woody's théme"]
        let notes: [String?] = [nil, nil, "", "o", "Toy museum", "crème brûlée", "abc"]
        let scores = [-1.5, 0, 0.5, 2.5, 3.0]
        return (0..<count).map { _ in
            Item(
                title: titles.randomElement(using: &generator)!,
                notes: notes.randomElement(using: &generator)!,
                rank: Int.random(in: -3...4, using: &generator),
                score: scores.randomElement(using: &generator)!,
                isDone: Bool.random(using: &generator),
                due: Bool.random(using: &generator) ? nil : now.addingTimeInterval(Double(Int.random(in: -3...3, using: &generator)) * 86_400),
                created: now.addingTimeInterval(Double(Int.random(in: -10...10, using: &generator)) * 3_600),
                level: Item.Level.allCases.randomElement(using: &generator)!,
                kind: ([nil] + Item.Kind.allCases.map(Optional.some)).randomElement(using: &generator)!,
                count: Bool.random(using: &generator) ? nil : Int.random(in: 0...4, using: &generator),
                labels: Array(["home", "work", "Café", "a\"b"].shuffled(using: &generator).prefix(Int.random(in: 0...3, using: &generator)))
            )
        }
    }

    /// One predicate per supported construct, by name.
    static func cases(ids: [UUID] = []) -> [(String, Predicate<Item>)] {
        let someIDs = Array(ids.prefix(5))
        let oneID = ids.first ?? UUID()
        let now = Self.now
        let high = Item.Level.high
        let idea = Item.Kind.idea
        let names = ["Woody", "Buzz", ""]
        let levels: [Item.Level] = [.high, .critical]
        let kinds: [Item.Kind?] = [.idea, nil]
        let noDate: Date? = nil
        let empty: [String] = []
        let threshold = 2
        return [
            ("equal", #Predicate { $0.rank == 3 }),
            ("not equal", #Predicate { $0.rank != 3 }),
            ("less", #Predicate { $0.rank < 1 }),
            ("less or equal", #Predicate { $0.rank <= 1 }),
            ("greater", #Predicate { $0.rank > threshold }),
            ("greater or equal", #Predicate { $0.score >= 0.5 }),
            ("string equal", #Predicate { $0.title == "Woody" }),
            ("string order", #Predicate { $0.title < "Woody" }),
            ("bool key path", #Predicate { $0.isDone }),
            ("not", #Predicate { !$0.isDone }),
            ("and", #Predicate { $0.isDone && $0.rank > 0 }),
            ("or", #Predicate { $0.isDone || $0.rank > 0 }),
            ("nested not or", #Predicate { !($0.isDone || $0.notes == nil) }),
            ("is nil", #Predicate { $0.notes == nil }),
            ("is not nil", #Predicate { $0.notes != nil }),
            ("optional equals value", #Predicate { $0.count == 3 }),
            ("optional not equals value", #Predicate { $0.count != 3 }),
            ("optional equals captured nil", #Predicate { $0.due == noDate }),
            ("flatMap with coalesce", #Predicate { $0.due.flatMap { $0 < now } ?? false }),
            ("if let", #Predicate { if let due = $0.due { due > now } else { true } }),
            ("optional chaining contains", #Predicate { $0.notes?.contains("o") == true }),
            ("optional chaining not true", #Predicate { $0.notes?.contains("o") != true }),
            ("guarded force unwrap", #Predicate { $0.due != nil && $0.due! > now }),
            ("nil coalescing", #Predicate { ($0.notes ?? "abc") == "abc" }),
            ("string contains", #Predicate { $0.title.contains("oo") }),
            ("string contains empty", #Predicate { $0.title.contains("") }),
            ("starts with", #Predicate { $0.title.starts(with: "W") }),
            ("starts with empty", #Predicate { $0.title.starts(with: "") }),
            ("starts with on optional", #Predicate { $0.notes?.starts(with: "Toy") ?? false }),
            ("is empty", #Predicate { $0.title.isEmpty }),
            ("in captured array", #Predicate { names.contains($0.title) }),
            ("in empty array", #Predicate { empty.contains($0.title) }),
            ("enum in captured array", #Predicate { levels.contains($0.level) }),
            ("optional enum in array with nil", #Predicate { kinds.contains($0.kind) }),
            ("enum equal", #Predicate { $0.level == high }),
            ("enum raw value", #Predicate { $0.level.rawValue >= 2 }),
            ("optional enum equal", #Predicate { $0.kind == idea }),
            ("optional enum raw value", #Predicate { $0.kind?.rawValue == "idea" }),
            ("arithmetic", #Predicate { $0.rank * 2 + 1 > ($0.count ?? 0) }),
            ("subtraction", #Predicate { $0.rank - 1 == 0 }),
            ("double arithmetic", #Predicate { $0.score * 2.0 > 3.0 }),
            ("remainder", #Predicate { $0.rank % 2 == 0 }),
            ("integer division", #Predicate { $0.rank / 2 == 1 }),
            ("float division", #Predicate { $0.score / 2.0 > 0.5 }),
            ("unary minus", #Predicate { -$0.rank > 0 }),
            ("date compare", #Predicate { $0.created < now }),
            ("ternary", #Predicate { $0.isDone ? $0.rank > 0 : $0.rank < 0 }),
            ("closed range", #Predicate { (1...3).contains($0.rank) }),
            ("half-open range", #Predicate { (1..<3).contains($0.rank) }),
            ("id equal", #Predicate { $0.id == oneID }),
            ("id in captured array", #Predicate { someIDs.contains($0.id) }),
            ("stored array contains", #Predicate { $0.labels.contains("Café") }),
            ("stored array contains quote", #Predicate { $0.labels.contains("a\"b") }),
            ("compare two columns", #Predicate { $0.rank > ($0.count ?? 0) }),
        ]
    }

    @Test func everySupportedConstructMatchesInMemoryEvaluation() throws {
        for seed in [1, 2, 3] as [UInt64] {
            let context = ModelContext(try makeContainer(), undo: false)
            let items = Self.randomItems(count: 300, seed: seed)
            var generator = SeededGenerator(seed: seed)
            items.forEach(context.insert)
            try context.save()
            for (name, predicate) in Self.cases(ids: items.map(\.id).shuffled(using: &generator)) {
                let expected = try items.filter { try predicate.evaluate($0) }.map(\.id)
                let actual: [UUID]
                do {
                    actual = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.id)
                } catch {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(actual == expected, "\(name) (seed \(seed)): SQL \(actual.count) rows, Swift \(expected.count)")
                let count = try context.fetchCount(FetchDescriptor(predicate: predicate))
                #expect(count == expected.count, "\(name): count")
            }
        }
    }

    @Test func sortsMatchInMemorySortingWithInsertionOrderForTies() throws {
        let context = ModelContext(try makeContainer(), undo: false)
        let items = Self.randomItems(count: 200, seed: 9)
        items.forEach(context.insert)
        try context.save()
        let descriptors: [[SortDescriptor<Item>]] = [
            [SortDescriptor(\.rank)],
            [SortDescriptor(\.rank, order: .reverse), SortDescriptor(\.title)],
            [SortDescriptor(\.due)],
            [SortDescriptor(\.due, order: .reverse), SortDescriptor(\.created)],
            [SortDescriptor(\.title, comparator: .lexical)],
            [SortDescriptor(\.score), SortDescriptor(\.count, order: .reverse)],
        ]
        for sort in descriptors {
            let expected = items.enumerated().sorted { lhs, rhs in
                for descriptor in sort {
                    switch descriptor.compare(lhs.element, rhs.element) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return lhs.offset < rhs.offset
            }.map(\.element.id)
            let actual = try context.fetch(FetchDescriptor(sortBy: sort)).map(\.id)
            #expect(actual == expected, "sort \(sort)")
        }
    }

    @Test func sortKeysOrderBoolsAndEnumsByStoredValue() throws {
        let context = ModelContext(try makeContainer(), undo: false)
        let items = Self.randomItems(count: 100, seed: 4)
        items.forEach(context.insert)
        try context.save()
        let fetched = try context.fetch(FetchDescriptor<Item>(sortKeys: [.ascending(\Item.isDone), .descending(\Item.level)]))
        let expected = items.enumerated().sorted { lhs, rhs in
            if lhs.element.isDone != rhs.element.isDone { return !lhs.element.isDone }
            if lhs.element.level != rhs.element.level { return lhs.element.level.rawValue > rhs.element.level.rawValue }
            return lhs.offset < rhs.offset
        }.map(\.element.id)
        #expect(fetched.map(\.id) == expected)
    }

    @Test func limitAndOffsetPageThroughTheOrder() throws {
        let context = ModelContext(try makeContainer(), undo: false)
        let items = Self.randomItems(count: 50, seed: 5)
        items.forEach(context.insert)
        try context.save()
        var descriptor = FetchDescriptor<Item>(sortBy: [SortDescriptor(\.rank)])
        let all = try context.fetch(descriptor).map(\.id)
        descriptor.fetchLimit = 20
        descriptor.fetchOffset = 20
        #expect(try context.fetch(descriptor).map(\.id) == Array(all[20..<40]))
        descriptor.fetchLimit = nil
        descriptor.fetchOffset = 45
        #expect(try context.fetch(descriptor).map(\.id) == Array(all[45...]))
    }
}

/// A deterministic generator (SplitMix64) so a failing seed can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

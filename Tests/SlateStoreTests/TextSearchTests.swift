import Foundation
import SlateStore
import Testing

@Suite struct TextSearchTests {
    func searchContext() throws -> ModelContext {
        let context = ModelContext(try makeContainer())
        for (title, notes) in [
            ("Compose Woody's théme variation", "Needs a melancholy version"),
            ("Rig Buzz Lightyear's wings", "New feather simulation"),
            ("Record foley", "Engine sounds, door creaks of the Pizza Planet truck"),
            ("Light the bedroom", nil),
        ] as [(String, String?)] {
            context.insert(Item(title: title, notes: notes))
        }
        try context.save()
        return context
    }

    /// `searchContext()` with these (title, notes) rows saved too.
    func searchContext(adding rows: [(String, String?)]) throws -> ModelContext {
        let context = try searchContext()
        for (title, notes) in rows { context.insert(Item(title: title, notes: notes)) }
        try context.save()
        return context
    }

    func count(_ context: ModelContext, _ text: String) throws -> Int {
        var descriptor = FetchDescriptor<Item>()
        descriptor.searchText = text
        return try context.fetchCount(descriptor)
    }

    func titles(_ context: ModelContext, _ text: String, _ predicate: Predicate<Item>? = nil) throws -> [String] {
        var descriptor = FetchDescriptor<Item>(predicate: predicate)
        descriptor.searchText = text
        return try context.fetch(descriptor).map(\.title)
    }

    @Test(arguments: [
        ("theme", ["Compose Woody's théme variation"]),
        ("WOO", ["Compose Woody's théme variation"]),
        ("wood theme", ["Compose Woody's théme variation"]),
        ("pizza", ["Record foley"]),
        ("light", ["Rig Buzz Lightyear's wings", "Light the bedroom"]),
        ("zzz", []),
        ("\"quoted", []),
        // Control characters separate words (found by fuzz/Targets/router: a NUL cut the query short).
        ("theme\u{0}", ["Compose Woody's théme variation"]),
        ("\u{0}LIGHT\u{1}buzz", ["Rig Buzz Lightyear's wings"]),
        ("\"woo\u{0}dy", []),
    ])
    func findsWordPrefixesWithoutCaseOrDiacritics(text: String, expected: [String]) throws {
        #expect(try titles(try searchContext(), text) == expected)
    }

    @Test func searchCombinesWithAPredicateAndSorts() throws {
        let context = try searchContext()
        #expect(try titles(context, "light", #Predicate { $0.notes == nil }) == ["Light the bedroom"])
        var descriptor = FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title, order: .reverse)])
        descriptor.searchText = "li"
        #expect(try context.fetch(descriptor).map(\.title) == ["Rig Buzz Lightyear's wings", "Light the bedroom"])
        descriptor.ranksBySearch = true
        #expect(try context.fetchCount(descriptor) == 2)
    }

    @Test func theIndexFollowsUpdatesAndDeletes() throws {
        let context = try searchContext()
        var item = try #require(try context.fetch(FetchDescriptor<Item>()).first { $0.title.hasPrefix("Record") })
        item.title = "Record squeaky toys"
        item.notes = nil
        context.update(item)
        try context.save()
        #expect(try titles(context, "pizza").isEmpty)
        #expect(try titles(context, "squeak") == ["Record squeaky toys"])
        context.delete(item)
        try context.save()
        #expect(try titles(context, "squeak").isEmpty)
    }

    @Test func blankSearchMatchesEverything() throws {
        #expect(try titles(try searchContext(), "   ").count == 4)
        #expect(try titles(try searchContext(), "\u{0} \u{1}").count == 4)
    }

    /// A word of a script written without spaces (Japanese, Chinese, Korean, Thai) is found
    /// inside a run of such text, not only at its start; with a Latin word, both are required.
    @Test func aWordOfAScriptWithoutSpacesIsFoundInsideTheText() throws {
        let context = try searchContext(adding: [
            ("日本語のタスク名前がとても長いです", nil), ("Budget review", "予算の見直し"), ("할일을 정리하기", nil),
        ])
        #expect(try titles(context, "タスク") == ["日本語のタスク名前がとても長いです"])
        #expect(try titles(context, "日本語") == ["日本語のタスク名前がとても長いです"])
        #expect(try titles(context, "見直し") == ["Budget review"])
        #expect(try titles(context, "budget 見直し") == ["Budget review"])
        #expect(try titles(context, "theme 見直し").isEmpty)
        #expect(try titles(context, "정리") == ["할일을 정리하기"])
        #expect(try count(context, "タスク") == 1)
    }

    /// A search with no letter or digit has nothing in the index (its tokenizer keeps words):
    /// it finds the text itself, in titles and notes, instead of matching every row.
    @Test func aSearchOfSymbolsFindsThemAsWritten() throws {
        let context = try searchContext(adding: [("Launch day 🚀", nil), ("Budget", "Cut costs -- see 🚀 memo"), ("Rate it ***", nil)])
        #expect(Set(try titles(context, "🚀")) == ["Launch day 🚀", "Budget"])
        #expect(try titles(context, "***") == ["Rate it ***"])
        #expect(try titles(context, "-- 🚀") == ["Budget"], "every piece must occur")
        #expect(try titles(context, "👩").isEmpty)
        #expect(try count(context, "🚀") == 2)
    }
}

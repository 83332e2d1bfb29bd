import Foundation
import SlateStore
import TestDatabases
import Testing

/// Full-text search on PostgreSQL matches exactly what SQLite's FTS5 matches: the same rows
/// and queries on both stores give the same answers (SQLite is the oracle), over text that
/// exercises the rules — case, Latin diacritics (composed and combining), punctuation inside
/// and between words, digits, other scripts, symbols, prefixes and phrases.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct SearchOracleTests {
    static let texts: [(String, String?)] = [
        ("Compose Woody's théme variation", "Needs a melancholy version"),
        ("Rig Buzz Lightyear's wings", "New feather simulation"),
        ("Record foley", "Engine sounds, door creaks of the Pizza Planet truck"),
        ("ÉLAN vital", "crème brûlée, Straße, Ærøskøbing"),
        ("cafe\u{301} au lait", "naïve coöperation"),
        ("state-of-the-art AC/DC adapter", "v1.2 build 2026-12-24 at 5pm"),
        ("mail ana@example.org", "see https://example.org/path?x=1"),
        ("Ελληνικά γράμματα", "Ρωσία и Москва: ёлка, йод"),
        ("你好世界 東京", "हैलो वर्ल्ड ١٢٣"),
        ("emoji 🦊 fox ☕️ coffee", "₿itcoin €uro ½ half ²squared"),
        ("ǅemal ﬁne Ǉ", "İstanbul ıı Ω ohm K kelvin"),
        ("under_score and dots.in.words", "tab\tseparated\nlines"),
        ("UPPER lower MiXeD", "123abc abc123 0042"),
        ("", nil),
    ]

    static let queries = [
        "theme", "THÉME", "woo", "woody's", "woodys", "wood theme", "li", "light", "pizza planet", "planet pizza",
        "elan", "élan", "creme", "brulee", "strasse", "straße", "aerosk", "ærø", "cafe", "café", "caf", "naive", "cooper",
        "state", "art", "of-the", "ac/dc", "dc", "v1", "1.2", "2026", "12-24", "5pm", "ana@example", "example.org",
        "https", "org/path", "ελλην", "γραμ", "москва", "елка", "ёлка", "йод", "иод", "你好", "東京", "हैलो", "वर्ल", "١٢٣",
        "🦊", "fox", "coffee", "itcoin", "uro", "½", "squared", "ǆemal", "ǅ", "fine", "ﬁne", "ǉ", "istanbul", "i̇stanbul",
        "ıı", "ω", "kelvin", "k", "under", "score", "under_score", "dots", "words", "separated", "lines", "upper",
        "MIXED", "123", "123a", "abc123", "abc", "0042", "42", "zzz", "\"quoted", "mi xe", "a", "e",
    ]

    func titles(_ context: ModelContext, _ text: String) throws -> [String] {
        var descriptor = FetchDescriptor<Item>(sortBy: [SortDescriptor(\.title)])
        descriptor.searchText = text
        return try context.fetch(descriptor).map(\.title)
    }

    @Test func everyQueryFindsWhatFTS5Finds() throws {
        let sqlite = ModelContext(try ModelContainer(for: allModels, configuration: .inMemory))
        let server = ModelContext(try makeContainer())
        #expect(server.container.dialect == .postgreSQL)
        for context in [sqlite, server] {
            for (title, notes) in Self.texts { context.insert(Item(title: title, notes: notes)) }
            try context.save()
        }
        for query in Self.queries {
            let expected = try titles(sqlite, query)
            #expect(try titles(server, query) == expected, "search \(query.debugDescription)")
        }
    }

    @Test func ranksTheBetterMatchFirst() throws {
        let context = ModelContext(try makeContainer())
        context.insert(Item(title: "a note about lights", notes: nil))
        context.insert(Item(title: "light light light", notes: "lights on"))
        try context.save()
        var descriptor = FetchDescriptor<Item>()
        descriptor.searchText = "light"
        descriptor.ranksBySearch = true
        #expect(try context.fetch(descriptor).map(\.title) == ["light light light", "a note about lights"])
    }
}

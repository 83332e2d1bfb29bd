import Foundation
import SlateStore
import TestDatabases
import Testing

@Suite struct SmokeTests {
    @Test func insertFetchRoundTripsEveryPropertyType() throws {
        let context = ModelContext(try makeContainer())
        let item = Item(title: "Write outline", notes: "Act 2\nline two", rank: 3, score: 2.5, isDone: true,
                        due: Date(timeIntervalSinceReferenceDate: 812_345_678.123_456), level: .critical,
                        kind: .idea, attachment: Data([0, 1, 2]), count: nil)
        context.insert(item)
        let commit = try context.save()
        #expect(commit?.revision == 1)
        #expect(commit?.changes(of: Item.self).inserted == [item.id])
        let fetched = try context.fetch(FetchDescriptor<Item>())
        #expect(fetched == [item])
    }
}

@Suite struct TextBindingTests {
    /// Text was bound as a C string: everything after a NUL was silently dropped.
    @Test func textWithNULAndMultiByteCharactersIsStoredWhole() throws {
        let context = ModelContext(try makeContainer())
        let item = Item(title: "before\u{0}after", notes: "café\u{0}\u{0}☕️ end")
        context.insert(item)
        if TestDatabase.isPostgreSQL {
            // PostgreSQL's text has no NUL: refused in words, nothing written (SlateCore
            // refuses control characters in what people type before it gets here).
            #expect { try context.save() } throws: { "\($0)".contains("U+0000 (NUL)") }
            #expect(try context.fetchCount(FetchDescriptor<Item>()) == 0)
            return
        }
        try context.save()
        let fetched = try #require(try context.model(Item.self, id: item.id))
        #expect(fetched.title == "before\u{0}after")
        #expect(fetched.notes == "café\u{0}\u{0}☕️ end")
        #expect(try context.fetchCount(FetchDescriptor<Item>(predicate: #Predicate { $0.title == "before\u{0}after" })) == 1)
    }
}

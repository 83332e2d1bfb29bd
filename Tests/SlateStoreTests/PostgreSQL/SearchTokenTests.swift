import Foundation
import Testing

@testable import SlateStore

/// The tokens PostgreSQL's search is given (`SearchDocument`) are FTS5's own: for every
/// character of the Basic Multilingual Plane and a sample of the others, between two ASCII
/// letters, `SearchDocument.tokens` gives exactly the terms SQLite's `unicode61
/// remove_diacritics 2` tokenizer stores (read back through `fts5vocab`). No server needed.
@Suite struct SearchTokenTests {
    static func fts5Terms(of texts: [String]) throws -> [[String]] {
        let database = try SQLiteDatabase(path: ":memory:", mode: .create, busyTimeout: 5)
        try database.execute("""
            CREATE VIRTUAL TABLE f USING fts5(a, tokenize='unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance');
            """)
        try database.transaction {
            for (index, text) in texts.enumerated() {
                try database.execute("INSERT INTO f(rowid, a) VALUES (?, ?)", [.integer(Int64(index + 1)), .text(text)])
            }
        }
        // One pass over the vocabulary (a lookup per document scans all of it).
        var terms = [[(Int, String)]](repeating: [], count: texts.count)
        for row in try database.rows("SELECT doc, \"offset\", term FROM v") {
            guard let doc = Int.fromDatabaseValue(row["doc"]), let offset = Int.fromDatabaseValue(row["offset"]),
                  let term = String.fromDatabaseValue(row["term"]) else { continue }
            terms[doc - 1].append((offset, term))
        }
        return terms.map { $0.sorted { $0.0 < $1.0 }.map(\.1) }
    }

    @Test func everyCharacterTokenizesAsInFTS5() throws {
        let scalars = (0x20...0xFFFF).compactMap(Unicode.Scalar.init)
            + stride(from: 0x10000, through: 0x2FFFF, by: 7).compactMap(Unicode.Scalar.init)
        // Each character alone between two letters: "a<c>b".
        let texts = scalars.map { "a" + String($0) + "b" }
        let expected = try Self.fts5Terms(of: texts)
        var mismatches: [String] = []
        for (index, text) in texts.enumerated() where SearchDocument.tokens(of: text) != expected[index] {
            let code = String(scalars[index].value, radix: 16, uppercase: true)
            mismatches.append("U+\(code): FTS5 \(expected[index]), ours \(SearchDocument.tokens(of: text))")
        }
        #expect(mismatches.count == 0, "first: \(mismatches.prefix(10))")
    }

    @Test func wordsAndPhrasesAsFTS5SplitsThem() throws {
        let texts = ["Woody's théme", "state-of-the-art AC/DC", "cafe\u{301}x ÉLAN", "İstanbul", "ﬁne ǅemal", "123abc 0042", "tab\tnew\nline"]
        let expected = try Self.fts5Terms(of: texts)
        for (index, text) in texts.enumerated() {
            #expect(SearchDocument.tokens(of: text) == expected[index], "\(text)")
        }
    }

    @Test func theDocumentAndQueryAreLiteralsPostgreSQLReads() {
        #expect(SearchDocument.vector(of: ["Woody's théme", "woody"]) == "'woody':1,5 's':2 'theme':3")
        #expect(SearchDocument.query(for: "woody's THÉ") == "('woody' <-> 's':*) & 'the':*")
        #expect(SearchDocument.query(for: "it's\\ o'k") == "('it' <-> 's':*) & ('o' <-> 'k':*)")
        #expect(SearchDocument.query(for: "   ") == nil)
    }

    @Test func placeholdersAreNumberedOutsideLiterals() {
        #expect(PostgreSQLPlaceholders.numbered(#"SELECT ? , '?', "a?" FROM t WHERE x = ? -- ?"#)
            == #"SELECT $1 , '?', "a?" FROM t WHERE x = $2 -- ?"#)
        #expect(PostgreSQLPlaceholders.numbered("SELECT 'it''s ?' , ?") == "SELECT 'it''s ?' , $1")
    }
}

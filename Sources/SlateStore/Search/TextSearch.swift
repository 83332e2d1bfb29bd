import Foundation

/// Turns what a person types into an FTS5 query.
enum TextSearch {
    /// Each word becomes a quoted prefix term, all required: `woo the` → `"woo"* "the"*`.
    /// Returns nil when the text has no letters or digits to search for.
    ///
    /// Control characters separate words, as white space does (and as the index's tokenizer
    /// treats them): FTS5 reads a query only up to a NUL, so one inside a quoted term left
    /// the string unterminated and the query failed.
    static func matchQuery(for text: String?) -> String? {
        guard let words = words(of: text) else { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }

    /// The words of a search, those with a letter or digit; nil when there is none.
    /// (`SearchDocument.query` makes PostgreSQL's query from the same words.)
    static func words(of text: String?) -> [Substring]? {
        guard let text else { return nil }
        let words = text.split(whereSeparator: separatesWords)
            .filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }
        return words.isEmpty ? nil : words
    }

    /// The pieces of a search that has no word to look up in the index but is not blank
    /// (`🚀`, `*`, `--`): each must occur in the text as it is. Nil when there is a word (the
    /// index answers) or nothing at all (no search).
    static func symbols(of text: String?) -> [String]? {
        guard let text, words(of: text) == nil else { return nil }
        let pieces = text.split(whereSeparator: separatesWords).map(String.init)
        return pieces.isEmpty ? nil : pieces
    }

    private static func separatesWords(_ character: Character) -> Bool {
        character.isWhitespace || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

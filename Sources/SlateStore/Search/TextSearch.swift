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
        guard let words = indexedWords(of: text) else { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }

    /// The words the index can find: those not written in a script without spaces between
    /// words (`isUnsegmented`); nil when there is none.
    static func indexedWords(of text: String?) -> [Substring]? {
        guard let words = words(of: text)?.filter({ !isUnsegmented($0) }), !words.isEmpty else { return nil }
        return words
    }

    /// What a search looks for as written instead of in the index, each piece required: a
    /// search without a letter or digit (`🚀`, `***`), or its words in a script written
    /// without spaces (`タスク`). Nil when there is none.
    static func literalPieces(of text: String?) -> [String]? {
        if let symbols = symbols(of: text) { return symbols }
        guard let words = words(of: text)?.filter(isUnsegmented), !words.isEmpty else { return nil }
        return words.map(String.init)
    }

    /// True for a word with a character of a script written without spaces between words
    /// (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar, Tibetan): the tokenizer keeps a whole
    /// run of them as one token, so a word inside it ("タスク" in "日本語のタスク") could
    /// only be found at its start.
    static func isUnsegmented(_ word: Substring) -> Bool {
        word.unicodeScalars.contains { scalar in Self.unsegmentedRanges.contains { $0.contains(scalar.value) } }
    }

    private static let unsegmentedRanges: [ClosedRange<UInt32>] = [
        0x0E00...0x0EFF, 0x0F00...0x0FFF, 0x1000...0x109F, 0x1100...0x11FF, 0x1780...0x17FF, 0x2E80...0x2FDF,
        0x3040...0x30FF, 0x3130...0x318F, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF,
        0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x2FA1F,
    ]

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
    private static func symbols(of text: String?) -> [String]? {
        guard let text, words(of: text) == nil else { return nil }
        let pieces = text.split(whereSeparator: separatesWords).map(String.init)
        return pieces.isEmpty ? nil : pieces
    }

    private static func separatesWords(_ character: Character) -> Bool {
        character.isWhitespace || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

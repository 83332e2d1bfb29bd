import Foundation

/// Full-text search on PostgreSQL with SQLite's rules: the words are FTS5's (`unicode61
/// remove_diacritics 2`: runs of letters, numbers and private-use characters, matched
/// without case and without the diacritics of Latin letters), each word a person types is a
/// prefix, and all of them must match (a typed word that holds punctuation, `woody's`, is a
/// phrase of its parts, the last a prefix).
///
/// The tokens come from SQLite's own tokenizer (`FTS5Tokenizer`) and are handed to
/// PostgreSQL as `tsvector` and `tsquery` literals, which it reads without a parser or
/// dictionary of its own: the same text gives the same tokens as on SQLite, whatever the
/// server's locale, and no extension is needed.
enum SearchDocument {
    /// The most positions PostgreSQL records (later words share the last one).
    static let maximumPosition = 16_383
    /// The longest lexeme PostgreSQL accepts, in bytes (longer tokens are cut there).
    static let maximumLexemeBytes = 2_046

    /// The `tsvector` literal of a row's searchable texts. Each column's words are numbered
    /// on from the last column's plus one, so a phrase never spans two columns.
    static func vector(of texts: [String]) -> String {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        var position = 0
        for text in texts {
            for token in tokens(of: text) {
                position = min(position + 1, maximumPosition)
                if positions[token] == nil { order.append(token) }
                positions[token, default: []].append(position)
            }
            position = min(position + 1, maximumPosition)
        }
        return order.map { token in
            literal(token) + ":" + Set(positions[token]!).sorted().map(String.init).joined(separator: ",")
        }.joined(separator: " ")
    }

    /// The `tsquery` literal for what a person typed, or nil when it has nothing to search
    /// for (the same words `TextSearch.matchQuery` keeps; see `TextSearch.literalPieces` for the rest).
    static func query(for text: String?) -> String? {
        guard let words = TextSearch.indexedWords(of: text) else { return nil }
        let terms = words.map { word -> String in
            let parts = tokens(of: String(word))
            // A typed word without a token character matches nothing, as in FTS5 (`-` is never
            // a token: punctuation separates them).
            guard !parts.isEmpty else { return "'-'" }
            let phrase = parts.enumerated().map { index, part in
                literal(part) + (index == parts.count - 1 ? ":*" : "")
            }
            return phrase.count == 1 ? phrase[0] : "(" + phrase.joined(separator: " <-> ") + ")"
        }
        return terms.joined(separator: " & ")
    }

    /// The folded tokens of `text`, in order: FTS5's own (`FTS5Tokenizer`), cut to the
    /// length PostgreSQL accepts.
    static func tokens(of text: String) -> [String] {
        FTS5Tokenizer.tokens(of: text).map(clip)
    }

    /// A token cut to PostgreSQL's lexeme limit, at a character boundary.
    private static func clip(_ token: String) -> String {
        guard token.utf8.count > maximumLexemeBytes else { return token }
        var bytes = Array(token.utf8.prefix(maximumLexemeBytes))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A lexeme in `tsvector` / `tsquery` syntax: single quotes, with `'` and `\` escaped.
    private static func literal(_ token: String) -> String {
        var text = "'"
        for character in token.unicodeScalars {
            if character == "'" || character == "\\" { text.unicodeScalars.append("\\") }
            text.unicodeScalars.append(character)
        }
        return text + "'"
    }
}

import Foundation

/// Full-text search on PostgreSQL with SQLite's rules (FTS5, `unicode61 remove_diacritics
/// 2`): words are runs of letters, numbers and private-use characters; they match without
/// case and without the diacritics of Latin letters; each word a person types is a prefix,
/// and all of them must match (a typed word that holds punctuation, `woody's`, is a phrase
/// of its parts, the last a prefix).
///
/// The tokens are made here, in Swift, and handed to PostgreSQL as `tsvector` and `tsquery`
/// literals, which PostgreSQL reads without a parser or dictionary of its own: the same
/// text gives the same tokens whatever the server's locale, and no extension is needed.
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
    /// for (the same words `TextSearch.matchQuery` keeps).
    static func query(for text: String?) -> String? {
        guard let words = TextSearch.words(of: text) else { return nil }
        let terms = words.map { word -> String in
            let parts = tokens(of: String(word))
            // A typed word without a token character matches nothing, as in FTS5.
            guard !parts.isEmpty else { return "!''" }
            let phrase = parts.enumerated().map { index, part in
                literal(part) + (index == parts.count - 1 ? ":*" : "")
            }
            return phrase.count == 1 ? phrase[0] : "(" + phrase.joined(separator: " <-> ") + ")"
        }
        return terms.joined(separator: " & ")
    }

    /// The folded tokens of `text`, in order.
    static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        func finish() {
            guard !current.isEmpty else { return }
            tokens.append(clip(String(current)))
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if isDiacritic(scalar) {
                // A combining mark is part of the word and is dropped from it.
                continue
            }
            guard isTokenCharacter(scalar) else {
                finish()
                continue
            }
            current.append(contentsOf: fold(scalar))
        }
        finish()
        return tokens
    }

    /// FTS5's token characters: letters, numbers and private use (`L* N* Co`).
    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            true
        default:
            false
        }
    }

    /// The combining marks FTS5 removes (`sqlite3Fts5UnicodeIsdiacritic`: U+0300–U+0331).
    static func isDiacritic(_ scalar: Unicode.Scalar) -> Bool {
        (0x300...0x331).contains(scalar.value) && scalar.properties.generalCategory == .nonspacingMark
    }

    /// Lower case, then a Latin letter without its diacritics: `É` → `e`, `ǅ` → `ǆ`.
    static func fold(_ scalar: Unicode.Scalar) -> String.UnicodeScalarView {
        if scalar.isASCII {
            var view = String.UnicodeScalarView()
            let value = scalar.value
            view.append((0x41...0x5A).contains(value) ? Unicode.Scalar(value + 0x20)! : scalar)
            return view
        }
        let lower = scalar.properties.lowercaseMapping
        // Only a one-character lower case (FTS5 folds one code point to one).
        let lowered: Unicode.Scalar = lower.unicodeScalars.count == 1 ? lower.unicodeScalars.first! : scalar
        let decomposed = String(lowered).decomposedStringWithCanonicalMapping.unicodeScalars
        if let base = decomposed.first, base.isASCII, decomposed.count > 1, decomposed.dropFirst().allSatisfy(isDiacriticMark) {
            var view = String.UnicodeScalarView()
            view.append(base)
            return view
        }
        var view = String.UnicodeScalarView()
        view.append(lowered)
        return view
    }

    private static func isDiacriticMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .nonspacingMark
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

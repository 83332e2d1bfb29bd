import Foundation

/// One piece of a quick-entry line, split at white space.
struct QuickEntryToken: Sendable {
    enum Kind: Sendable {
        /// A bare word: may be a date, a `!priority`, `#list`, `@tag`, or title text.
        case word
        /// Quoted or backslash-escaped text: always title text, never read.
        case literal
        /// `#"Toy Story"`: a list name with spaces.
        case quotedList
    }

    var kind: Kind
    /// The word as typed; for a literal, its text without quotes or backslash; for a quoted
    /// list, the name.
    var text: String
    /// Where the token sits in the line, quotes and sigils included.
    var range: Range<String.Index>
}

/// Splits a line into tokens, honouring quotes, and cuts off the notes after `//`.
///
/// A quote opens a literal only at the start of a token (or right after `#`) and closes only at
/// the end of one, so the inch mark in `Buy 12" pizza` stays an ordinary character; a quote
/// that never closes is an ordinary character too. Straight ("…") and curly (“…”) quotes work.
struct QuickEntryTokenizer {
    let line: String

    func tokens() -> (tokens: [QuickEntryToken], notes: Range<String.Index>?) {
        var tokens: [QuickEntryToken] = []
        var index = line.startIndex
        while index < line.endIndex {
            if line[index].isWhitespace {
                index = line.index(after: index)
                continue
            }
            if let close = closingQuote(openingAt: index) {
                let end = line.index(after: close)
                let text = String(line[line.index(after: index)..<close])
                tokens.append(QuickEntryToken(kind: .literal, text: text, range: index..<end))
                index = end
                continue
            }
            let next = line.index(after: index)
            if line[index] == "#", next < line.endIndex, let close = closingQuote(openingAt: next) {
                let name = line[line.index(after: next)..<close].trimmingCharacters(in: .whitespaces)
                let end = line.index(after: close)
                if !name.isEmpty {
                    tokens.append(QuickEntryToken(kind: .quotedList, text: name, range: index..<end))
                    index = end
                    continue
                }
            }
            var end = index
            while end < line.endIndex, !line[end].isWhitespace { end = line.index(after: end) }
            let word = line[index..<end]
            if word == "//" {
                let notesEnd = line[end...].lastIndex(where: { !$0.isWhitespace }).map { line.index(after: $0) }
                return (tokens, index..<max(notesEnd ?? end, end))
            }
            if word.count > 1, word.first == "\\" {
                tokens.append(QuickEntryToken(kind: .literal, text: String(word.dropFirst()), range: index..<end))
            } else {
                tokens.append(QuickEntryToken(kind: .word, text: String(word), range: index..<end))
            }
            index = end
        }
        return (tokens, nil)
    }

    /// The matching closing quote when `index` holds an opening quote that closes at the end of a
    /// token later in the line.
    private func closingQuote(openingAt index: String.Index) -> String.Index? {
        let closing: Character
        switch line[index] {
        case "\"": closing = "\""
        case "\u{201C}": closing = "\u{201D}"
        default: return nil
        }
        var candidate = line.index(after: index)
        while candidate < line.endIndex {
            let after = line.index(after: candidate)
            if line[candidate] == closing, after == line.endIndex || line[after].isWhitespace { return candidate }
            candidate = after
        }
        return nil
    }
}

import Foundation

/// Turns what a person types into an FTS5 query.
enum TextSearch {
    /// Each word becomes a quoted prefix term, all required: `woo the` → `"woo"* "the"*`.
    /// Returns nil when the text has no letters or digits to search for.
    static func matchQuery(for text: String?) -> String? {
        guard let text else { return nil }
        let words = text.split(whereSeparator: \.isWhitespace)
            .filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }
        guard !words.isEmpty else { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }
}

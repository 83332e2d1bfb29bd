import Foundation

/// Manual order: positions are numbers, and a moved item takes a number between its
/// new neighbours, so one move writes one row.
enum Ordering {
    /// The position for an item placed before `otherID` among `items` (id, position), sorted
    /// ascending; at the end when `otherID` is nil.
    static func position(before otherID: UUID?, in items: [(UUID, Double)], what: String) throws -> Double {
        guard let otherID else { return (items.last?.1 ?? 0) + 1 }
        guard let index = items.firstIndex(where: { $0.0 == otherID }) else {
            throw SlateError.notFound("\(what) to move before")
        }
        let next = items[index].1
        let previous = index > 0 ? items[index - 1].1 : next - 2
        return (previous + next) / 2
    }
}

/// The closest candidate to a mistyped word, for "did you mean …?".
public enum Suggestion {
    /// The candidate with the smallest edit distance, if it is close enough to be a typo.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let lowered = word.lowercased()
        let scored = candidates.map { ($0, distance(lowered, $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, lowered.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance.
    public static func distance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

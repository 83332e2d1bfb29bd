import Foundation

/// Manual order: positions are numbers, and a moved item takes a number between its
/// new neighbours, so one move usually writes one row. When the gap between two
/// neighbours gets too small to split (after about 20 moves into the same gap), the
/// whole sequence is renumbered 1, 2, 3… in the same change: the order never runs out.
enum Ordering {
    /// The smallest gap that is still split; below it the sequence is renumbered.
    static let minimumGap = 1e-6

    /// Where a moved item goes: its position, and the other items whose positions change
    /// (empty unless the sequence had to be renumbered).
    struct Placement: Equatable {
        var position: Double
        var renumbered: [UUID: Double] = [:]
    }

    /// The position for an item placed before `otherID` among `items` (id, position), sorted
    /// ascending and without the moved item; at the end when `otherID` is nil.
    static func position(before otherID: UUID?, in items: [(UUID, Double)], what: String) throws -> Double {
        try placement(before: otherID, in: items, what: what).position
    }

    /// Like `position`, renumbering the items when their gap is too small to split.
    static func placement(before otherID: UUID?, in items: [(UUID, Double)], what: String) throws -> Placement {
        guard let otherID else {
            let last = items.last?.1 ?? 0
            let end = last + 1
            // Positions this large no longer have room between whole numbers.
            if end > last, end < 1e15 { return Placement(position: end) }
            return renumbered(items, inserting: items.count)
        }
        guard let index = items.firstIndex(where: { $0.0 == otherID }) else {
            throw SlateError.notFound("\(what) to move before")
        }
        let next = items[index].1
        let previous = index > 0 ? items[index - 1].1 : next - 2
        let middle = (previous + next) / 2
        if next - previous >= minimumGap, previous < middle, middle < next {
            return Placement(position: middle)
        }
        return renumbered(items, inserting: index)
    }

    /// Every item renumbered 1, 2, 3… with the moved one at `slot`.
    private static func renumbered(_ items: [(UUID, Double)], inserting slot: Int) -> Placement {
        var placement = Placement(position: Double(slot + 1))
        for (offset, item) in items.enumerated() {
            let position = Double(offset < slot ? offset + 1 : offset + 2)
            if position != item.1 { placement.renumbered[item.0] = position }
        }
        return placement
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

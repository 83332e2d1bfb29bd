import Foundation
import SlateStore

/// How important a task is. The raw value is the sort rank: higher is more urgent.
public enum Priority: Int, Codable, CaseIterable, Comparable, Sendable, DatabaseValueConvertible {
    case none = 0
    case low = 1
    case medium = 2
    case high = 3
    case critical = 4

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The name used in commands, JSON and quick entry: "none", "low", "medium", "high", "critical".
    public var name: String {
        switch self {
        case .none: "none"
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        case .critical: "critical"
        }
    }

    /// The Reminders-style marks shown where space is short: "", "!", "!!", "!!!", "!!!!".
    public var marks: String { String(repeating: "!", count: rawValue) }

    /// Reads a priority by name (any case), abbreviation (`crit`, `med`, `hi`, `lo`),
    /// digit `0`–`4`, or marks (`!` … `!!!!`). Nil when it is none of those.
    public init?(name: String) {
        switch name.lowercased() {
        case "none", "0", "no": self = .none
        case "low", "lo", "l", "1", "!": self = .low
        case "medium", "med", "m", "2", "!!": self = .medium
        case "high", "hi", "h", "3", "!!!": self = .high
        case "critical", "crit", "c", "4", "!!!!": self = .critical
        default: return nil
        }
    }

    /// The accepted forms, for error messages.
    public static let acceptedForms = "none, low, medium, high, critical (or 0–4, or ! to !!!!)"
}

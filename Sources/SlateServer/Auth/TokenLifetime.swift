import Foundation
import SlateCore

/// How long a new API token works: `12h`, `30d`, `8w`, `1y`, or `never`. Shared by
/// `slate token create --expires` and `POST /api/v1/tokens` (`"expiresIn"`).
public enum TokenLifetime {
    /// The longest lifetime accepted (ten years).
    public static let maximum: TimeInterval = 3650 * 86_400

    /// The accepted forms, for error messages.
    public static let forms = "a number with h, d, w or y (12h, 30d, 8w, 1y; at most 10y), or never"

    /// Seconds, nil for `never`; throws naming `field` for anything else.
    public static func parse(_ text: String, field: String) throws -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "never" { return nil }
        let units: [Character: TimeInterval] = ["h": 3600, "d": 86_400, "w": 7 * 86_400, "y": 365 * 86_400]
        guard let unit = trimmed.last.flatMap({ units[$0] }), trimmed.count <= 8,
              let count = Int(trimmed.dropLast()), count > 0, trimmed.dropLast().allSatisfy(\.isNumber),
              Double(count) * unit <= maximum
        else {
            throw SlateError.invalid(field: field, message: "'\(text)' is not a token lifetime: use \(forms).")
        }
        return Double(count) * unit
    }
}

/// A token's public record: what `slate token list` and `GET /api/v1/tokens` show. The
/// secret itself is never shown again after it is created.
public struct TokenRecord: Sendable {
    public let id: UUID
    public let label: String
    public let created: Date
    public let lastUsed: Date?
    public let expires: Date?

    init(_ credential: Credential) {
        id = credential.id
        label = credential.label
        created = credential.created
        lastUsed = credential.lastUsed
        expires = credential.expires
    }

    /// The JSON object (dates as RFC 3339 UTC, null when absent).
    public var json: [String: Any] {
        [
            "id": id.uuidString.lowercased(), "label": label, "created": Timestamp.format(created),
            "lastUsed": lastUsed.map(Timestamp.format) ?? NSNull(), "expires": expires.map(Timestamp.format) ?? NSNull(),
        ]
    }
}

import Foundation

/// The rules for alert settings' text fields.
public enum AlertRules {
    /// The longest email address or webhook URL accepted.
    public static let maximumAddressLength = 320

    /// An email address: one `@`, no spaces or control characters, at most 320 characters.
    public static func validEmail(_ text: String, field: String = "email") throws -> String {
        let email = text.trimmingCharacters(in: .whitespaces)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= maximumAddressLength, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !"<>,;\"()[]\\".unicodeScalars.contains($0) })
        else {
            throw SlateError.invalid(field: field, message: "'\(text)' is not an email address; use the form name@example.org.")
        }
        return email
    }

    /// A webhook URL: `http` or `https` with a host, at most 320 characters.
    public static func validWebhookURL(_ text: String, field: String = "webhookURL") throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= maximumAddressLength, let url = URL(string: trimmed),
              ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false
        else {
            throw SlateError.invalid(field: field, message: "'\(text)' is not a webhook URL; use http://host[:port]/path or https://….")
        }
        return trimmed
    }
}

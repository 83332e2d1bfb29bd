import Foundation
import SlateStore

/// A secret that proves who someone is: a password, an API token or a web session.
/// Only a hash of the secret is stored; the secret itself is shown once, when made.
public struct Credential: Codable, Sendable, Identifiable, Hashable {
    public enum Kind: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        /// An Argon2id hash of the account's password (one per account).
        case password
        /// A bearer token for API clients (`slate token create`), stored as a SHA-256 digest.
        case token
        /// A browser session id, stored as a SHA-256 digest.
        case session
    }

    public var id: UUID
    public var accountID: UUID
    public var kind: Kind
    /// The hash: an Argon2id string for passwords, a hex SHA-256 digest for tokens and sessions.
    public var secretHash: String
    /// What the user called it ("CI", "phone") or, for sessions, the client.
    public var label: String
    public var created: Date
    /// After this it no longer works; nil for never.
    public var expires: Date?
    /// When a token was last used (recorded at most once an hour); nil if never.
    public var lastUsed: Date?

    public init(id: UUID = UUID(), accountID: UUID, kind: Kind, secretHash: String, label: String = "",
                created: Date, expires: Date? = nil, lastUsed: Date? = nil) {
        self.id = id
        self.accountID = accountID
        self.kind = kind
        self.secretHash = secretHash
        self.label = label
        self.created = created
        self.expires = expires
        self.lastUsed = lastUsed
    }
}

extension Credential: PersistentModel {
    public static let schema = ModelSchema<Credential>(
        table: "credentials",
        columns: [
            .column(\.kind, "kind"), .column(\.secretHash, "secretHash"), .column(\.label, "label"),
            .column(\.created, "created"), .column(\.expires, "expires"),
            .column(\.lastUsed, "lastUsed"),
        ],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        indexes: [Index("credentials_by_hash", on: ["kind", "secretHash"], unique: true)],
        partition: "accountID"
    )
}

import Foundation

/// Whose data it is. A local database has one account, `local`.
public struct Account: Codable, Sendable, Identifiable, Hashable {
    public var id: UUID
    /// Unique, compared without case.
    public var name: String
    public var created: Date

    public init(id: UUID = UUID(), name: String, created: Date = Date()) {
        self.id = id
        self.name = name
        self.created = created
    }

    /// The name of the account a local database uses.
    public static let localName = "local"
}

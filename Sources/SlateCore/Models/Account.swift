import Foundation

/// Whose data it is. A local database has one account, `local`.
public struct Account: Codable, Sendable, Identifiable, Hashable {
    public var id: UUID
    /// Unique, compared without case.
    public var name: String
    public var created: Date
    /// The IANA time zone (`Europe/Paris`) that dates and times are read in when a client
    /// does not say its own; nil: the server's zone.
    public var timeZone: String?

    public init(id: UUID = UUID(), name: String, created: Date = Date(), timeZone: String? = nil) {
        self.id = id
        self.name = name
        self.created = created
        self.timeZone = timeZone
    }

    /// The name of the account a local database uses.
    public static let localName = "local"
}

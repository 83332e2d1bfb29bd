import Foundation
import SlateCore

/// What `slate user …` and `slate token …` do, and the first-start account of `slate serve`.
/// Secrets are generated here, shown once by the caller, and only their hashes are stored.
public struct AccountAdministration: Sendable {
    public let directory: AccountDirectory
    let clock: @Sendable () -> Date
    /// How hard new password hashes are: `.interactive` always, except in tests.
    let strength: Secrets.Strength

    public init(container: BoardStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.init(container: container, clock: clock, strength: .interactive)
    }

    /// For tests that make many accounts: `.minimal` hashes in microseconds, so dozens of
    /// tests at once do not starve the machine (never for real passwords).
    init(container: BoardStore, clock: @escaping @Sendable () -> Date = { Date() }, strength: Secrets.Strength) {
        directory = AccountDirectory(container: container)
        self.clock = clock
        self.strength = strength
    }

    /// The shortest password accepted when a person chooses one.
    public static let minimumPasswordLength = 10

    /// Creates an account with `password`, or a generated one; returns the password to show once.
    public func addUser(named name: String, password: String? = nil) throws -> String {
        let chosen = try password.map(Self.checked) ?? Secrets.randomToken(bytes: 15)
        let account = try directory.createAccount(named: name, now: clock())
        try directory.setPasswordHash(try Secrets.hashPassword(chosen, strength: strength), for: account.id, now: clock())
        return chosen
    }

    /// Sets a new password (generated when nil) and signs out the account's web sessions.
    public func changePassword(of name: String, to password: String? = nil) throws -> String {
        let account = try directory.requireAccount(named: name)
        let chosen = try password.map(Self.checked) ?? Secrets.randomToken(bytes: 15)
        try directory.setPasswordHash(try Secrets.hashPassword(chosen, strength: strength), for: account.id, now: clock())
        return chosen
    }

    /// The longest token label.
    public static let maximumLabelLength = 100

    /// A new API token for the account, working for `lifetime` seconds (nil: until revoked);
    /// returns the token to show once.
    public func createToken(for name: String, label: String, lifetime: TimeInterval? = nil) throws -> String {
        try createToken(for: try accountID(named: name), label: label, lifetime: lifetime).token
    }

    /// A new API token for the account with this id; the token (to show once) and its record.
    public func createToken(for accountID: UUID, label: String, lifetime: TimeInterval?) throws -> (token: String, record: TokenRecord) {
        guard label.count <= Self.maximumLabelLength, !label.contains(where: { $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) else {
            throw SlateError.invalid(field: "label", message: "A token label is at most \(Self.maximumLabelLength) characters on one line.")
        }
        let token = Secrets.randomToken()
        let now = clock()
        let credential = try directory.addSecret(.token, digest: Secrets.digest(token), for: accountID, label: label, now: now,
                                                 expires: lifetime.map { now.addingTimeInterval($0) })
        return (token, TokenRecord(credential))
    }

    /// The account's tokens, newest first.
    public func tokens(of name: String) throws -> [TokenRecord] {
        try directory.tokens(of: try accountID(named: name)).map(TokenRecord.init)
    }

    /// Revokes the account's token whose id is `id` or starts with it (at least 8 characters).
    public func revokeToken(_ id: String, of name: String) throws -> TokenRecord {
        let prefix = id.lowercased()
        let owner = try accountID(named: name)
        let listing = "slate token list --user \(name) shows them"
        guard prefix.count >= 8 else {
            throw SlateError.invalid(field: "id", message: "'\(id)' is too short: give at least the first 8 characters of the token's id (\(listing)).")
        }
        let matches = try directory.tokens(of: owner).filter { $0.id.uuidString.lowercased().hasPrefix(prefix) }
        guard matches.count == 1, let token = matches.first else {
            throw matches.isEmpty ? SlateError.notFound("token of \(name) has an id starting with '\(id)'; \(listing)")
                : SlateError.invalid(field: "id", message: "'\(id)' names more than one token; give more of its id.")
        }
        try directory.revokeToken(token.id, of: token.accountID)
        return TokenRecord(token)
    }

    private func accountID(named name: String) throws -> UUID {
        let account = try directory.requireAccount(named: name)
        return account.id
    }

    /// On a first start with no account that can sign in, creates `name` with a generated
    /// password and returns it (to print once); nil when an account exists already.
    public func firstStartAccount(named name: String = "admin") throws -> (name: String, password: String)? {
        let accounts = try directory.accounts()
        if try accounts.contains(where: { try directory.passwordHash(forAccountNamed: $0.name) != nil }) { return nil }
        if let existing = accounts.first {
            return (existing.name, try changePassword(of: existing.name))
        }
        return (name, try addUser(named: name))
    }

    private static func checked(_ password: String) throws -> String {
        guard password.count >= minimumPasswordLength else {
            throw SlateError.invalid(field: "password", message: "A password needs at least \(minimumPasswordLength) characters.")
        }
        return password
    }
}

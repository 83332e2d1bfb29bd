import Foundation
import SlateCore

/// What `slate user …` and `slate token …` do, and the first-start account of `slate serve`.
/// Secrets are generated here, shown once by the caller, and only their hashes are stored.
public struct AccountAdministration: Sendable {
    public let directory: AccountDirectory
    let clock: @Sendable () -> Date

    public init(container: BoardStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        directory = AccountDirectory(container: container)
        self.clock = clock
    }

    /// The shortest password accepted when a person chooses one.
    public static let minimumPasswordLength = 10

    /// Creates an account with `password`, or a generated one; returns the password to show once.
    public func addUser(named name: String, password: String? = nil) throws -> String {
        let chosen = try password.map(Self.checked) ?? Secrets.randomToken(bytes: 15)
        let account = try directory.createAccount(named: name, now: clock())
        try directory.setPasswordHash(try Secrets.hashPassword(chosen), for: account.id, now: clock())
        return chosen
    }

    /// Sets a new password (generated when nil) and signs out the account's web sessions.
    public func changePassword(of name: String, to password: String? = nil) throws -> String {
        guard let account = try directory.account(named: name) else { throw SlateError.notFound("account named \(name)") }
        let chosen = try password.map(Self.checked) ?? Secrets.randomToken(bytes: 15)
        try directory.setPasswordHash(try Secrets.hashPassword(chosen), for: account.id, now: clock())
        return chosen
    }

    /// A new API token for the account; returns the token to show once.
    public func createToken(for name: String, label: String) throws -> String {
        guard let account = try directory.account(named: name) else { throw SlateError.notFound("account named \(name)") }
        let token = Secrets.randomToken()
        try directory.addSecret(.token, digest: Secrets.digest(token), for: account.id, label: label, now: clock(), expires: nil)
        return token
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

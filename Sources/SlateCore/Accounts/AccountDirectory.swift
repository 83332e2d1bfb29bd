import Foundation
import SlateStore

/// The accounts of a database and their credentials. Hashing is the caller's: the
/// server hashes passwords with Argon2id and tokens with SHA-256, and hands the hashes here.
public struct AccountDirectory: Sendable {
    public let container: ModelContainer

    public init(container: ModelContainer) { self.container = container }

    private func context() -> ModelContext { ModelContext(container, undo: false) }

    /// A number that changes whenever accounts or credentials change (nil while another
    /// process's change is not seen yet): for caching who a token or session is.
    public func credentialsStamp() throws -> Int? {
        try container.changeStamp(of: [Credential.self, Account.self])
    }

    /// Every account, by name.
    public func accounts() throws -> [Account] {
        try context().fetch(FetchDescriptor<Account>()).sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The account named `name`, ignoring case.
    public func account(named name: String) throws -> Account? {
        let wanted = name.lowercased()
        return try accounts().first { $0.name.lowercased() == wanted }
    }

    /// The account named `name`, ignoring case; when there is none, the error names the
    /// accounts there are (for an administrator's command line, never a client).
    public func requireAccount(named name: String) throws -> Account {
        let all = try accounts()
        let wanted = name.lowercased()
        if let found = all.first(where: { $0.name.lowercased() == wanted }) { return found }
        throw SlateError.notFound("account is named '\(name)'; "
            + (all.isEmpty ? "the database has none yet" : "the accounts are \(all.map(\.name).joined(separator: ", "))"))
    }

    /// The account with `id`, if it exists.
    public func account(id: UUID) throws -> Account? {
        try context().model(Account.self, id: id)
    }

    /// Sets the account's default time zone (an IANA name; nil: the server's), the zone
    /// dates are read in when a client does not send its own. The account's all-day dates
    /// move with it: each is placed at its day's start there (`Slate.homeCalendar`), so that
    /// they keep sorting by day.
    @discardableResult
    public func setTimeZone(_ name: String?, for accountID: UUID) throws -> Account {
        guard var account = try account(id: accountID) else { throw SlateError.notFound("such account") }
        account.timeZone = try name.map { try TimeZones.name($0) }
        let context = context()
        context.update(account)
        let home = Self.homeCalendar(zone: account.timeZone)
        let dated = try context.fetch(FetchDescriptor<TaskItem>(predicate: #Predicate {
            $0.accountID == accountID && $0.isAllDay && $0.dueDay != nil
        }))
        for var task in dated {
            guard let day = task.dueCalendarDay else { continue }
            let start = day.start(in: home)
            if task.due != start {
                task.due = start
                context.update(task)
            }
        }
        try context.save()
        return account
    }

    /// The calendar of an account's own zone (`Account.timeZone`); when it has none,
    /// `otherwise`: this machine's unless given (where a server reads the dates of a client
    /// that sends no zone).
    static func homeCalendar(zone name: String?, otherwise: @autoclosure () -> Calendar = TimeZones.calendar(in: .current)) -> Calendar {
        name.flatMap { try? TimeZones.calendar(named: $0) } ?? otherwise()
    }

    /// The zone dates are read in for the account when a client sends none: its own
    /// default, else the server's.
    public func timeZone(of accountID: UUID) throws -> TimeZone {
        guard let name = try account(id: accountID)?.timeZone, let zone = TimeZone(identifier: name) else { return .current }
        return zone
    }

    /// Creates an account. Names are 1–64 letters, digits, dots, dashes or underscores,
    /// unique ignoring case.
    public func createAccount(named name: String, now: Date) throws -> Account {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(trimmed.count),
              trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else {
            throw SlateError.invalid(field: "name", message: "An account name is 1 to 64 letters, digits, dots, dashes or underscores; got '\(name)'.")
        }
        guard try account(named: trimmed) == nil else {
            throw SlateError.invalid(field: "name", message: "An account named \(trimmed) already exists.")
        }
        let account = Account(name: trimmed, created: now)
        let context = context()
        context.insert(account)
        try context.save()
        return account
    }

    /// Replaces the account's password hash (and signs out its web sessions).
    public func setPasswordHash(_ hash: String, for accountID: UUID, now: Date) throws {
        let context = context()
        for credential in try credentials(of: accountID) where credential.kind == .password || credential.kind == .session {
            context.delete(credential)
        }
        context.insert(Credential(accountID: accountID, kind: .password, secretHash: hash, created: now))
        try context.save()
    }

    /// The account named `name` and its password hash, if it has one.
    public func passwordHash(forAccountNamed name: String) throws -> (Account, String)? {
        guard let account = try account(named: name),
              let password = try credentials(of: account.id).first(where: { $0.kind == .password })
        else { return nil }
        return (account, password.secretHash)
    }

    /// Stores a token or session digest for an account.
    @discardableResult
    public func addSecret(_ kind: Credential.Kind, digest: String, for accountID: UUID, label: String, now: Date,
                          expires: Date?) throws -> Credential {
        let credential = Credential(accountID: accountID, kind: kind, secretHash: digest, label: label, created: now, expires: expires)
        let context = context()
        context.insert(credential)
        try context.save()
        return credential
    }

    /// The account a token or session digest belongs to, if it exists and has not expired.
    public func account(forSecret digest: String, kind: Credential.Kind, now: Date) throws -> UUID? {
        guard let credential = try credential(forSecret: digest, kind: kind) else { return nil }
        if let expires = credential.expires, expires <= now { return nil }
        return credential.accountID
    }

    /// The token or session with this digest, expired or not.
    public func credential(forSecret digest: String, kind: Credential.Kind) throws -> Credential? {
        let kindValue = kind
        return try context().fetch(FetchDescriptor<Credential>(
            predicate: #Predicate { $0.secretHash == digest && $0.kind == kindValue })).first
    }

    /// Forgets a token or session (sign out, revoke).
    public func removeSecret(_ digest: String, kind: Credential.Kind) throws {
        let kindValue = kind
        let context = context()
        try context.delete(model: Credential.self, where: #Predicate { $0.secretHash == digest && $0.kind == kindValue })
        try context.save()
    }

    /// The account's API tokens, newest first.
    public func tokens(of accountID: UUID) throws -> [Credential] {
        try credentials(of: accountID).filter { $0.kind == .token }.sorted { $0.created > $1.created }
    }

    /// Revokes the account's token with this id; false when it has none such.
    @discardableResult
    public func revokeToken(_ id: UUID, of accountID: UUID) throws -> Bool {
        let context = context()
        guard let token = try context.model(Credential.self, id: id), token.accountID == accountID, token.kind == .token else { return false }
        context.delete(token)
        try context.save()
        return true
    }

    /// Records that a token was used at `now`.
    public func recordUse(of credentialID: UUID, at now: Date) throws {
        let context = context()
        guard var credential = try context.model(Credential.self, id: credentialID) else { return }
        credential.lastUsed = now
        context.update(credential)
        try context.save()
    }

    /// Deletes every session and token that has expired; returns how many.
    @discardableResult
    public func removeExpiredSecrets(now: Date) throws -> Int {
        let context = context()
        let expired = try context.fetch(FetchDescriptor<Credential>()).filter { credential in
            credential.kind != .password && (credential.expires.map { $0 <= now } ?? false)
        }
        guard !expired.isEmpty else { return 0 }
        for credential in expired { context.delete(credential) }
        try context.save()
        return expired.count
    }

    private func credentials(of accountID: UUID) throws -> [Credential] {
        try context().fetch(FetchDescriptor<Credential>(predicate: #Predicate { $0.accountID == accountID }))
    }
}

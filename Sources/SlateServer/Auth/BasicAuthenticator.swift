import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// HTTP Basic sign-in for CalDAV clients: the account's name with its password or with an
/// app password (a token from `slate token create` or the web app's settings).
///
/// Checks go through the same guard as the web sign-in: bounds, the limiter (429 with
/// Retry-After past it), Argon2id on the password workers, a dummy hash for unknown names.
/// Credentials checked once are remembered as a digest until a commit touches credentials
/// or accounts (a revocation, a password change), so a sync of many requests checks once.
/// An app password's use is recorded (at most hourly, in the background) as its
/// last sync.
public struct BasicAuthenticator: Sendable {
    let directory: AccountDirectory
    let guardian: SignInGuard
    let clock: @Sendable () -> Date
    private let verified = VerifiedPasswords()
    private let uses = AppPasswordUses()

    public init(container: BoardStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        directory = AccountDirectory(container: container)
        guardian = SignInGuard(limiter: LoginLimiter(ledger: SignInLedger(store: container)))
        self.clock = clock
    }

    /// The account the request's Basic credentials name, or a 400/401/429/503 `HTTPError`.
    /// Its reads run on the board's reader threads and recording an app password's use on
    /// its writer thread, never on Swift's cooperative pool.
    public func accountID(for request: Request) async throws -> UUID {
        let (name, secret) = try credentials(in: request)
        let key = Self.key(name, secret)
        if let id = try await BoardThreads.shared.read({ try self.remembered(key) }) { return id }

        let now = clock()
        let attempt: LoginLimiter.Attempt
        switch try guardian.limiter.begin(name: name, address: request.remoteAddress, now: now) {
        case .refused(let wait):
            throw HTTPError(.tooManyRequests, code: "rate_limited", message: "Too many sign-in attempts; try again in \(wait) seconds.",
                            headers: ["Retry-After": String(wait)])
        case .allowed(let allowed):
            attempt = allowed
        }
        let directory = self.directory
        // The stamp is taken before what it guards is read (see `changeStamp(of:)`).
        let (stamp, found, token) = try await BoardThreads.shared.read { () throws -> (Int?, (Account, String)?, (Account, Credential)?) in
            let stamp = try directory.container.changeStamp(of: [Credential.self, Account.self])
            let found = try directory.passwordHash(forAccountNamed: name)
            guard let account = try found?.0 ?? directory.account(named: name),
                  let token = try directory.credential(forSecret: Secrets.digest(secret), kind: .token), token.accountID == account.id
            else { return (stamp, found, nil) }
            return (stamp, found, (account, token))
        }
        var accountID: UUID?
        if let (account, token) = token, token.expires.map({ $0 > now }) ?? true {
            accountID = account.id
            if uses.claim(token.id, stored: token.lastUsed, now: now, interval: Self.useInterval) { recordUse(of: token.id, at: now) }
        } else {
            let matches: Bool
            do {
                matches = try await guardian.verify(secret, against: found?.1)
            } catch {
                guardian.limiter.abandon(attempt)
                throw error
            }
            if matches { accountID = found?.0.id }
        }
        guard let accountID else {
            guardian.limiter.finish(attempt, succeeded: false, now: clock())
            throw unauthorized("The name or the password is wrong.")
        }
        guardian.limiter.finish(attempt, succeeded: true, now: clock())
        if let stamp {
            verified.table.withLock { table in
                if table.count >= 1024 { table.removeAll(keepingCapacity: true) }
                table[key] = (accountID, stamp, token?.1.id)
            }
        }
        return accountID
    }

    /// The account of Basic credentials checked before, while no commit has touched
    /// credentials or accounts since (a revocation or a password change is one); nil when
    /// they must be checked (`accountID(for:)`). Blocking: call it on a database thread.
    public func rememberedAccountID(for request: Request) throws -> UUID? {
        guard let (name, secret) = try? credentials(in: request) else { return nil }
        return try remembered(Self.key(name, secret))
    }

    /// How often an app password's last use is written: at most hourly, because the write
    /// changes the credentials' stamp and so empties every remembered check.
    static let useInterval: TimeInterval = 3600

    private func remembered(_ key: String) throws -> UUID? {
        guard let stamp = try directory.container.changeStamp(of: [Credential.self, Account.self]),
              let (id, seen, tokenID) = verified.table.withLock({ $0[key] }), seen == stamp else { return nil }
        let now = clock()
        if let tokenID, uses.claim(tokenID, stored: nil, now: now, interval: Self.useInterval) { recordUse(of: tokenID, at: now) }
        return id
    }

    /// Writes an app password's last use in the background: a sign-in never waits for the
    /// write lock for it.
    private func recordUse(of tokenID: UUID, at now: Date) {
        let directory = self.directory
        Task.detached { try? await BoardThreads.shared.write(to: directory.container) { try directory.recordUse(of: tokenID, at: now) } }
    }

    private func credentials(in request: Request) throws -> (String, String) {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("basic "),
              let decoded = Data(base64Encoded: header.dropFirst(6).trimmingHTTPWhitespace),
              let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else {
            throw unauthorized("Sign in with your account name and its password or an app password (HTTP Basic).")
        }
        let name = String(text[..<colon])
        let secret = String(text[text.index(after: colon)...])
        try guardian.checkBounds(name: name, password: secret)
        return (name, secret)
    }

    private static func key(_ name: String, _ secret: String) -> String { Secrets.digest(name.lowercased() + "\u{0}" + secret) }

    private func unauthorized(_ message: String) -> HTTPError {
        HTTPError(.unauthorized, code: "unauthorized", message: message, headers: ["WWW-Authenticate": "Basic realm=\"Slate\", charset=\"UTF-8\""])
    }
}

/// Passwords already checked, by a digest of name and password, with the change stamp of
/// the credentials and accounts they were checked at and the app password's id (nil for
/// the account password).
final class VerifiedPasswords: Sendable {
    let table = Mutex<[String: (UUID, Int, UUID?)]>([:])
}

/// When each app password's use was last recorded by this process.
final class AppPasswordUses: Sendable {
    private let recorded = Mutex<[UUID: Date]>([:])

    /// True (and `now` remembered) when the last recorded use — this process's, else
    /// `stored` — is `interval` or more ago.
    func claim(_ id: UUID, stored: Date?, now: Date, interval: TimeInterval) -> Bool {
        recorded.withLock { recorded in
            if let last = recorded[id] ?? stored, now.timeIntervalSince(last) < interval {
                recorded[id] = last
                return false
            }
            if recorded.count >= 4096 { recorded.removeAll(keepingCapacity: true) }
            recorded[id] = now
            return true
        }
    }
}

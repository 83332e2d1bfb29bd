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
/// An app password's use is recorded (at most hourly) as its last sync.
public struct BasicAuthenticator: Sendable {
    let directory: AccountDirectory
    let guardian: SignInGuard
    let clock: @Sendable () -> Date
    private let verified = VerifiedPasswords()

    public init(container: BoardStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        directory = AccountDirectory(container: container)
        guardian = SignInGuard(limiter: LoginLimiter(ledger: SignInLedger(store: container)))
        self.clock = clock
    }

    /// The account the request's Basic credentials name, or a 400/401/429/503 `HTTPError`.
    public func accountID(for request: Request) async throws -> UUID {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("basic "),
              let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else {
            throw unauthorized("Sign in with your account name and its password or an app password (HTTP Basic).")
        }
        let name = String(text[..<colon])
        let secret = String(text[text.index(after: colon)...])
        try guardian.checkBounds(name: name, password: secret)
        let stamp = try directory.container.changeStamp(of: [Credential.self, Account.self])
        let key = Secrets.digest(name.lowercased() + "\u{0}" + secret)
        if let stamp, let (id, seen) = verified.table.withLock({ $0[key] }), seen == stamp { return id }

        let now = clock()
        let attempt: LoginLimiter.Attempt
        switch try guardian.limiter.begin(name: name, address: request.remoteAddress, now: now) {
        case .refused(let wait):
            throw HTTPError(.tooManyRequests, code: "rate_limited", message: "Too many sign-in attempts; try again in \(wait) seconds.",
                            headers: ["Retry-After": String(wait)])
        case .allowed(let allowed):
            attempt = allowed
        }
        let found = try directory.passwordHash(forAccountNamed: name)
        var accountID: UUID?
        let named = try found?.0 ?? directory.account(named: name)
        if let account = named,
           let token = try directory.credential(forSecret: Secrets.digest(secret), kind: .token), token.accountID == account.id,
           token.expires.map({ $0 > now }) ?? true {
            accountID = account.id
            if token.lastUsed.map({ now.timeIntervalSince($0) >= 3600 }) ?? true { try directory.recordUse(of: token.id, at: now) }
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
        if let stamp = try directory.container.changeStamp(of: [Credential.self, Account.self]) {
            verified.table.withLock { table in
                if table.count >= 1024 { table.removeAll(keepingCapacity: true) }
                table[key] = (accountID, stamp)
            }
        }
        return accountID
    }

    private func unauthorized(_ message: String) -> HTTPError {
        HTTPError(.unauthorized, code: "unauthorized", message: message, headers: ["WWW-Authenticate": "Basic realm=\"Slate\", charset=\"UTF-8\""])
    }
}

/// Passwords already checked, by a digest of name and password, with the change stamp of
/// the credentials and accounts they were checked at.
final class VerifiedPasswords: Sendable {
    let table = Mutex<[String: (UUID, Int)]>([:])
}

import Foundation
import SlateCore
import SlateHTTP
import SlateStore
import Synchronization

/// HTTP Basic sign-in for CalDAV clients: the account's name with its password or with an
/// app password (a token from `slate token create` or the web app's settings).
///
/// Failures count against the same kind of limiter as the web sign-in (429 with
/// Retry-After past it). A password checked once is remembered as a digest until a commit
/// touches credentials or accounts, so a sync of many requests hashes it once.
public struct BasicAuthenticator: Sendable {
    let directory: AccountDirectory
    let limiter = LoginLimiter()
    let clock: @Sendable () -> Date
    private let verified = VerifiedPasswords()

    public init(container: ModelContainer, clock: @escaping @Sendable () -> Date = { Date() }) {
        directory = AccountDirectory(container: container)
        self.clock = clock
    }

    /// The account the request's Basic credentials name, or a 401/429 `HTTPError`.
    public func accountID(for request: Request) throws -> UUID {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("basic "),
              let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else {
            throw unauthorized("Sign in with your account name and its password or an app password (HTTP Basic).")
        }
        let name = String(text[..<colon])
        let secret = String(text[text.index(after: colon)...])
        guard name.utf8.count <= 256, secret.utf8.count <= 1024 else { throw unauthorized("The name or the password is too long.") }
        let now = clock()
        if let wait = limiter.retryAfter(name: name, address: request.remoteAddress, now: now) {
            throw HTTPError(.tooManyRequests, code: "rate_limited", message: "Too many failed sign-ins; try again in \(wait) seconds.",
                            headers: ["Retry-After": String(wait)])
        }
        let stamp = try directory.container.changeStamp(of: [Credential.self, Account.self])
        let key = Secrets.digest(name.lowercased() + "\u{0}" + secret)
        if let stamp, let (id, seen) = verified.table.withLock({ $0[key] }), seen == stamp { return id }
        guard let account = try directory.account(named: name) else {
            limiter.recordFailure(name: name, address: request.remoteAddress, now: now)
            throw unauthorized("The name or the password is wrong.")
        }
        var accepted = false
        if let credential = try directory.credential(forSecret: Secrets.digest(secret), kind: .token), credential.accountID == account.id,
           credential.expires.map({ $0 > now }) ?? true {
            accepted = true
        } else if let (_, hash) = try directory.passwordHash(forAccountNamed: account.name), Secrets.verify(secret, against: hash) {
            accepted = true
        }
        guard accepted else {
            limiter.recordFailure(name: name, address: request.remoteAddress, now: now)
            throw unauthorized("The name or the password is wrong.")
        }
        limiter.recordSuccess(name: name, address: request.remoteAddress)
        if let stamp {
            verified.table.withLock { table in
                if table.count >= 1024 { table.removeAll(keepingCapacity: true) }
                table[key] = (account.id, stamp)
            }
        }
        return account.id
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

import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// Who a request is from: a bearer token (API clients) or a session cookie (the web
/// app). Cookie-authenticated changes must carry `X-Requested-With: slate`, a header a
/// cross-site form cannot send, so a forged request from another site is refused.
struct Authenticator: Sendable {
    static let cookieName = "slate_session"
    static let csrfHeader = "X-Requested-With"
    static let csrfValue = "slate"

    let directory: AccountDirectory
    let clock: @Sendable () -> Date
    /// Tokens and sessions already looked up, until a commit touches credentials or accounts.
    let known = KnownSecrets()
    /// When each token's use was last written to the store.
    let tokenUses = TokenUses()

    init(directory: AccountDirectory, clock: @escaping @Sendable () -> Date) {
        self.directory = directory
        self.clock = clock
    }

    func accountID(for request: Request) throws -> UUID {
        if let authorization = request.headers["Authorization"] {
            guard let token = Self.bearerToken(authorization) else {
                throw unauthorized("Use 'Authorization: Bearer <token>'; create a token with 'slate token create'.")
            }
            guard let id = try account(forSecret: token, kind: .token) else {
                throw unauthorized("The token is not valid (revoked, expired or mistyped).")
            }
            return id
        }
        guard let session = Self.cookie(Self.cookieName, in: request) else {
            throw unauthorized("Sign in first.")
        }
        guard let id = try account(forSecret: session, kind: .session) else {
            throw unauthorized("Your session has expired; sign in again.")
        }
        if ![HTTPMethod.get, .head, .options].contains(request.method), request.headers[Self.csrfHeader] != Self.csrfValue {
            throw HTTPError(.forbidden, code: "csrf", message: "Changes from the web app must send the header \(Self.csrfHeader): \(Self.csrfValue).")
        }
        return id
    }

    /// The account of a request whose token or session was already looked up (and has not
    /// expired) while no commit touched credentials or accounts, when nothing needs writing
    /// for it now (a token's hourly last use); nil for every other request, which then takes
    /// `accountID(for:)`. It only reads the store's change stamp, so a bounded read may
    /// call it on the thread it runs on.
    func knownAccountID(for request: Request) throws -> UUID? {
        let secret: String, kind: Credential.Kind
        if let authorization = request.headers["Authorization"] {
            guard let token = Self.bearerToken(authorization) else { return nil }
            (secret, kind) = (token, .token)
        } else {
            // A change from the web app also needs its CSRF header: left to `accountID(for:)`.
            guard [HTTPMethod.get, .head].contains(request.method), let session = Self.cookie(Self.cookieName, in: request) else {
                return nil
            }
            (secret, kind) = (session, .session)
        }
        guard let stamp = try directory.credentialsStamp(), let entry = known.entry(for: secret, kind: kind, stamp: stamp) else {
            return nil
        }
        let now = clock()
        if let expires = entry.expires, expires <= now { return nil }
        guard kind != .token || !tokenUses.isDue(entry.credentialID, now: now) else { return nil }
        return entry.accountID
    }

    /// The account of an unexpired token or session. A secret seen before is not hashed
    /// and looked up again while no commit has touched credentials or accounts since:
    /// a revocation, sign-out or password change is a commit, so it takes effect at once
    /// (another process's, as soon as the store shows a commit not yet reported).
    private func account(forSecret secret: String, kind: Credential.Kind) throws -> UUID? {
        let stamp = try directory.credentialsStamp()
        let now = clock()
        if let stamp, let entry = known.entry(for: secret, kind: kind, stamp: stamp) {
            if let expires = entry.expires, expires <= now { return nil }
            try recordUse(entry.credentialID, kind: kind, stored: nil, now: now)
            return entry.accountID
        }
        guard let credential = try directory.credential(forSecret: Secrets.digest(secret), kind: kind) else { return nil }
        if let stamp {
            known.remember(secret, kind: kind, stamp: stamp, credentialID: credential.id, accountID: credential.accountID, expires: credential.expires)
        }
        if let expires = credential.expires, expires <= now { return nil }
        try recordUse(credential.id, kind: kind, stored: credential.lastUsed, now: now)
        return credential.accountID
    }

    /// Writes a token's last use, at most once an hour per token (a write per request
    /// would cost more than the request). A write that fails gives the claim back: the next
    /// request tries again (a read on PostgreSQL that runs again after its snapshot closed
    /// early, `ModelContainer.snapshot(expecting:usuallyNothingElse:_:)`, writes it then).
    private func recordUse(_ id: UUID, kind: Credential.Kind, stored: Date?, now: Date) throws {
        guard kind == .token, tokenUses.claim(id, stored: stored, now: now) else { return }
        do {
            try directory.recordUse(of: id, at: now)
        } catch {
            tokenUses.giveBack(id, claimedAt: now)
            throw error
        }
    }

    func unauthorized(_ message: String) -> HTTPError {
        HTTPError(.unauthorized, code: "unauthorized", message: message, headers: ["WWW-Authenticate": "Bearer realm=\"slate\""])
    }

    /// The token of an `Authorization: Bearer <token>` header, without surrounding white
    /// space; nil for any other scheme.
    private static func bearerToken(_ authorization: String) -> String? {
        guard authorization.lowercased().hasPrefix("bearer ") else { return nil }
        // Trimming bridges through NSString: skipped when the ends are token characters.
        let raw = authorization.dropFirst(7)
        return raw.first.map(isTokenCharacter) == true && raw.last.map(isTokenCharacter) == true
            ? String(raw) : raw.trimmingHTTPWhitespace
    }

    /// A character of a base64 or base64url token, which is never white space.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "-_.~+/=".utf8.contains(ascii)
        }
    }

    /// The value of cookie `name`, if the request sent it.
    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(\.trimmingHTTPWhitespace)
                if parts.count == 2, parts[0] == name { return parts[1] }
            }
        }
        return nil
    }
}

/// Secrets that were found in the store, with the change stamp (see
/// `BoardStore.changeStamp`) of the credentials and accounts they were read at.
final class KnownSecrets: Sendable {
    struct Entry {
        let credentialID: UUID
        let accountID: UUID
        let expires: Date?
        let stamp: Int
    }

    /// Beyond this many, the oldest knowledge is dropped all at once.
    static let capacity = 4096

    private let entries = Mutex<[String: Entry]>([:])

    func entry(for secret: String, kind: Credential.Kind, stamp: Int) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[Self.key(secret, kind)] else { return nil }
            return entry.stamp == stamp ? entry : nil
        }
    }

    func remember(_ secret: String, kind: Credential.Kind, stamp: Int, credentialID: UUID, accountID: UUID, expires: Date?) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[Self.key(secret, kind)] = Entry(credentialID: credentialID, accountID: accountID, expires: expires, stamp: stamp)
        }
    }

    private static func key(_ secret: String, _ kind: Credential.Kind) -> String { kind.rawValue + " " + secret }
}

/// When each token's last use was written, so it is written at most once an hour.
final class TokenUses: Sendable {
    static let interval: TimeInterval = 3600
    private let written = Mutex<[UUID: Date]>([:])

    /// True unless this process wrote (or read) the token's last use less than an hour
    /// before `now`: `claim` may then want to write it.
    func isDue(_ id: UUID, now: Date) -> Bool {
        written.withLock { written in written[id].map { Self.isDue(after: $0, now: now) } ?? true }
    }

    /// True when the use last written at `last` is an hour old at `now` (or in its future:
    /// the clock went back).
    private static func isDue(after last: Date, now: Date) -> Bool {
        now.timeIntervalSince(last) >= interval || last > now
    }

    /// True when the use at `now` should be written (and from now on counts as written).
    func claim(_ id: UUID, stored: Date?, now: Date) -> Bool {
        written.withLock { written in
            let last = written[id] ?? stored ?? .distantPast
            if written[id] == nil, let stored { written[id] = stored }
            guard Self.isDue(after: last, now: now) else { return false }
            if written.count >= KnownSecrets.capacity { written.removeAll(keepingCapacity: true) }
            written[id] = now
            return true
        }
    }

    /// Undoes `claim(_:stored:now:)` at `now` when the use could not be written.
    func giveBack(_ id: UUID, claimedAt now: Date) {
        written.withLock { written in
            if written[id] == now { written[id] = nil }
        }
    }
}

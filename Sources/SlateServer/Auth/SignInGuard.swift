import Foundation
import SlateHTTP
import Synchronization

/// Everything between a sign-in request and its password check: input bounds, the
/// ``LoginLimiter``, the ``PasswordWorkers`` that run Argon2id, and a dummy hash so an
/// unknown name costs the same evaluation as a wrong password.
final class SignInGuard: Sendable {
    /// Account names are at most 64 characters (see `AccountDirectory.createAccount`).
    static let maximumNameLength = 64
    /// Longer passwords are refused before hashing (Argon2id reads all of them).
    static let maximumPasswordBytes = 1024

    let limiter: LoginLimiter
    let workers: PasswordWorkers
    private let evaluationCount = Atomic(0)
    private let lastPurge = Mutex(Date.distantPast)

    init(limiter: LoginLimiter = LoginLimiter(), workers: PasswordWorkers = .shared) {
        self.limiter = limiter
        self.workers = workers
    }

    /// Password evaluations made (for tests: every attempt that was not refused makes one).
    var evaluations: Int { evaluationCount.load(ordering: .relaxed) }

    /// True at most once a minute: time to delete expired sessions and tokens.
    func claimPurge(now: Date) -> Bool {
        lastPurge.withLock { last in
            guard now.timeIntervalSince(last) >= 60 else { return false }
            last = now
            return true
        }
    }

    /// A hash of a random password, verified against when the name is unknown.
    private static let dummyHash: String = (try? Secrets.hashPassword(Secrets.randomToken())) ?? ""

    /// Refuses a name or password over its bound with 400 naming the field.
    func checkBounds(name: String, password: String) throws {
        guard !name.isEmpty, name.count <= Self.maximumNameLength else {
            throw HTTPError(.badRequest, code: "invalid_field",
                            message: "'name' must be an account name of 1 to \(Self.maximumNameLength) characters.", field: "name")
        }
        guard password.utf8.count <= Self.maximumPasswordBytes else {
            throw HTTPError(.badRequest, code: "invalid_field",
                            message: "'password' must be at most \(Self.maximumPasswordBytes) bytes.", field: "password")
        }
    }

    /// Verifies `password` against `hash` (the dummy hash when nil) on the password workers.
    func verify(_ password: String, against hash: String?) async throws -> Bool {
        let matches: Bool
        do {
            // The dummy hash is made on first use: there too, off the request threads.
            matches = try await workers.run { Secrets.verify(password, against: hash ?? Self.dummyHash) }
        } catch {
            throw HTTPError(.serviceUnavailable, code: "busy",
                            message: "The server is checking too many passwords at once; try again in a second.",
                            headers: ["Retry-After": "1"])
        }
        evaluationCount.add(1, ordering: .relaxed)
        return matches && hash != nil
    }
}

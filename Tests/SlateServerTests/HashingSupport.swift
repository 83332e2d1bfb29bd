import Foundation

/// Runs `work` on a thread of its own. For test set-up that hashes passwords (Argon2id: a
/// tenth of a second or more and 64 MiB each): on Swift's cooperative pool it would hold up
/// the servers and streams that the tests running beside it wait for.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

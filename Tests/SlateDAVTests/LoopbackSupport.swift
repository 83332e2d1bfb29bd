import Foundation
@testable import SlateStore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs `work` on a thread of its own, never on the cooperative pool a server under test needs.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// A plain TCP client on 127.0.0.1 for tests that need the real server: every blocking
/// read runs on a thread of its own and gives up after `timeout`, so a test can fail but
/// never hang. (The same as SlateServerTests' client.)
final class LoopbackClient: Sendable {
    private let descriptor: Int32
    private let received = Mutex<[UInt8]>([])

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(port: Int, timeout: TimeInterval) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed") }
        var time = timeval(tv_sec: Int(timeout.rounded(.up)), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(description: "connect failed")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send failed") }
            offset += sent
        }
    }

    /// Reads until the text received so far satisfies `done`, the peer closes, or a read
    /// times out; returns the text.
    func read(until done: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await offPool {
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let text = self.received.withLock { String(decoding: $0, as: UTF8.self) }
                if done(text) { return text }
                let count = recv(self.descriptor, &chunk, chunk.count, 0)
                if count <= 0 { return text }
                self.received.withLock { $0.append(contentsOf: chunk[0..<count]) }
            }
        }
    }
}

/// Holds SQLite's write lock on a connection of its own, on a thread of its own, until
/// released (at most 15 seconds), as another process writing the same file would.
final class LockHolder: Sendable {
    private let pool: DatabasePool
    private let released = DispatchSemaphore(value: 0)
    private let holding = Atomic<Bool>(false)

    init(pool: DatabasePool) { self.pool = pool }

    var isHolding: Bool { holding.load(ordering: .acquiring) }

    /// Returns once the lock is held.
    func acquire() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            Thread {
                do {
                    try self.pool.write { database in
                        try database.execute("BEGIN IMMEDIATE")
                        self.holding.store(true, ordering: .releasing)
                        continuation.resume()
                        // Let go after a while regardless, so that a stalled server fails the test instead of hanging it.
                        _ = self.released.wait(timeout: .now() + 15)
                        self.holding.store(false, ordering: .releasing)
                        try database.execute("ROLLBACK")
                    }
                } catch {
                    if !self.isHolding { continuation.resume(throwing: error) }
                }
            }.start()
        }
    }

    func release() { released.signal() }
}

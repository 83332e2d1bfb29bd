import CMicroHTTPD
import Foundation
import Synchronization

#if os(Linux)
import Glibc

/// Notices at once when the client of an open stream goes away.
///
/// A stream waiting for its next event is a suspended connection, and libmicrohttpd does
/// not watch a suspended connection's socket: a client that closed would be found out only
/// by the next write (the next event or heartbeat), and until then every change would still
/// be fanned out to it. So each stream's socket is watched here for the peer's hang-up
/// (`EPOLLRDHUP`, once); the stream then ends, its connection is resumed, and the library
/// closes it and reports it completed.
///
/// A stream's client sends nothing after its request, so a half-close is a hang-up here.
final class HangUpWatch: Sendable {
    private let poller: Int32
    private let watched = Mutex<[UInt64: (socket: Int32, hungUp: @Sendable () -> Void)]>([:])
    private let stopped = Atomic(false)

    init() {
        poller = slate_hangup_poller()
    }

    deinit { if poller >= 0 { close(poller) } }

    /// Calls `hungUp` (on the watch's thread, once) when the peer of `socket` closes.
    func watch(_ key: UInt64, socket: Int32, hungUp: @escaping @Sendable () -> Void) {
        guard poller >= 0, socket >= 0 else { return }
        watched.withLock { watched in
            watched[key] = (socket, hungUp)
            _ = slate_hangup_watch(poller, socket, key)
        }
    }

    /// Stops watching; called before the library closes the socket (its closed
    /// notification), so a descriptor is never unregistered after it was reused.
    func forget(_ key: UInt64) {
        watched.withLock { watched in
            guard let entry = watched.removeValue(forKey: key) else { return }
            _ = slate_hangup_forget(poller, entry.socket)
        }
    }

    /// Streams watched now (for tests).
    var count: Int { watched.withLock { $0.count } }

    /// Starts the thread that waits for hang-ups until ``stop()``.
    func start() {
        guard poller >= 0 else { return }
        let thread = Thread { [self] in
            var keys = [UInt64](repeating: 0, count: 256)
            while !stopped.load(ordering: .acquiring) {
                let count = keys.withUnsafeMutableBufferPointer { buffer in
                    slate_hangup_wait(poller, buffer.baseAddress, Int32(buffer.count), 250)
                }
                guard count > 0 else { continue }
                let callbacks = watched.withLock { watched in
                    keys[0..<Int(count)].compactMap { key in watched.removeValue(forKey: key)?.hungUp }
                }
                for hungUp in callbacks { hungUp() }
            }
        }
        thread.name = "slate-hang-up-watch"
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .releasing) }
}
#else
/// Without epoll, a stream's gone client is found out by the next write.
final class HangUpWatch: Sendable {
    func watch(_ key: UInt64, socket: Int32, hungUp: @escaping @Sendable () -> Void) {}
    func forget(_ key: UInt64) {}
    var count: Int { 0 }
    func start() {}
    func stop() {}
}
#endif

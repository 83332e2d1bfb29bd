import CMicroHTTPD
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps slow and idle connections from crowding out real clients.
///
/// libmicrohttpd 0.9.75 has an idle timeout that any byte resets, no deadline for a
/// request's head, and no call to close a connection from outside. So every connection is
/// tracked from the library's connection notifications, with a deadline while it is not
/// busy with a request: `headerTimeout` from when it opened (the first request's head must
/// be in by then), `bodyTimeout` from the end of a head (its body), `idleTimeout` after
/// each response (the next request's head). A
/// connection past its deadline, or the oldest of the waiting ones once the open
/// connections pass the high-water mark, is closed by shutting its socket down: the
/// library then sees the end of the stream and closes it itself.
///
/// The socket stays open until the library has told us it closed the connection (it
/// notifies before it closes the descriptor), and both happen under this lock, so a
/// descriptor is never shut down after it was closed and reused.
final class ConnectionWatch: Sendable {
    private struct Tracked {
        let socket: Int32
        let opened: ContinuousClock.Instant
        /// Between a request's last byte and its completion (a handler working, a stream open).
        var busy = false
        var deadline: ContinuousClock.Instant
        /// Shut down already; waiting for the library to notice.
        var evicted = false
    }

    private struct State {
        var connections: [UInt: Tracked] = [:]
        var live = 0
        var stopped = false
    }

    let headerTimeout: Duration
    let bodyTimeout: Duration
    let idleTimeout: Duration
    /// Past this many open connections, the oldest waiting one is closed for each new one.
    let highWater: Int
    private let state = Mutex(State())
    /// Connections closed early, for tests and logs.
    let evictions = Atomic(0)
    /// Connections the library holds open, read without the lock (``ServerCore/start(_:)``).
    let openCount = Atomic(0)
    /// Open streams whose client may hang up while they wait for their next chunk.
    let hangUps = HangUpWatch()

    init(configuration: HTTPServer.Configuration) {
        headerTimeout = configuration.headerTimeout
        bodyTimeout = configuration.bodyTimeout
        idleTimeout = configuration.idleTimeout
        let total = configuration.maxConnections
        highWater = max(1, total - max(1, total / 4))
    }

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    /// The library accepted a connection.
    func opened(_ connection: OpaquePointer) {
        let socket = slate_mhd_connection_fd(connection)
        let now = ContinuousClock.now
        openCount.add(1, ordering: .relaxed)
        state.withLock { state in
            state.connections[Self.key(connection)] = Tracked(socket: socket, opened: now, deadline: now + headerTimeout)
            state.live += 1
            var excess = state.live - highWater
            guard excess > 0 else { return }
            let waiting = state.connections.filter { !$0.value.busy && !$0.value.evicted }.sorted { $0.value.opened < $1.value.opened }
            for (key, _) in waiting where excess > 0 && key != Self.key(connection) {
                evict(key, in: &state)
                excess -= 1
            }
        }
    }

    /// A request's head is complete: its body (if any) is due within the body timeout.
    func headersArrived(_ connection: OpaquePointer) {
        let deadline = ContinuousClock.now + bodyTimeout
        state.withLock { $0.connections[Self.key(connection)]?.deadline = deadline }
    }

    /// The whole request is in: no deadline until it is answered (a handler working, a stream open).
    func requestReceived(_ connection: OpaquePointer) {
        state.withLock { $0.connections[Self.key(connection)]?.busy = true }
    }

    /// A request was answered (or abandoned): the next head is due within the idle timeout.
    func requestCompleted(_ connection: OpaquePointer) {
        let deadline = ContinuousClock.now + idleTimeout
        state.withLock { state in
            // One lookup for both fields (each optional-chained assignment looked it up again).
            guard let index = state.connections.index(forKey: Self.key(connection)) else { return }
            state.connections.values[index].busy = false
            state.connections.values[index].deadline = deadline
        }
    }

    /// The library closed the connection (its socket is closed after this returns).
    func closed(_ connection: OpaquePointer) {
        hangUps.forget(UInt64(Self.key(connection)))
        openCount.subtract(1, ordering: .relaxed)
        state.withLock { state in
            guard let tracked = state.connections.removeValue(forKey: Self.key(connection)) else { return }
            if !tracked.evicted { state.live -= 1 }
        }
    }

    /// Calls `hungUp` once, at once, if the client of this connection (an open stream)
    /// closes it.
    func watchHangUp(_ connection: OpaquePointer, _ hungUp: @escaping @Sendable () -> Void) {
        let key = Self.key(connection)
        guard let socket = state.withLock({ $0.connections[key]?.socket }) else { return }
        hangUps.watch(UInt64(key), socket: socket, hungUp: hungUp)
    }

    /// Closes every waiting connection past its deadline.
    func sweep() {
        let now = ContinuousClock.now
        state.withLock { state in
            let late = state.connections.filter { !$0.value.busy && !$0.value.evicted && $0.value.deadline <= now }.map(\.key)
            for key in late { evict(key, in: &state) }
        }
    }

    private func evict(_ key: UInt, in state: inout State) {
        guard let socket = state.connections[key]?.socket, socket >= 0 else { return }
        state.connections[key]?.evicted = true
        state.live -= 1
        _ = shutdown(socket, Int32(SHUT_RDWR))
        evictions.add(1, ordering: .relaxed)
    }

    /// Starts the thread that sweeps four times a second until ``stop()``.
    func startSweeping() {
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopped }) {
                sweep()
                usleep(250_000)
            }
        }
        thread.name = "slate-connection-watch"
        thread.start()
        hangUps.start()
    }

    func stop() {
        state.withLock { $0.stopped = true }
        hangUps.stop()
    }
}

import Dispatch
import Foundation
import Synchronization

/// An HTTP/1.1 server over libmicrohttpd that answers with a ``Responder``.
///
/// Network threads belong to the library; handlers run on Swift concurrency. Between the
/// two, a connection whose request is complete is suspended, the responder runs in a Task,
/// and the connection is resumed when the response is ready — no library thread ever waits.
///
/// - Errors: an ``HTTPError`` renders its JSON; any other error is logged to standard error
///   and answered `500 {"error":{"code":"internal_error",…}}` without its details.
/// - Limits (``Configuration``): a declared body over `maxBodySize` is answered 413 before
///   it is read; a chunked body that grows past it closes the connection (the library
///   cannot answer in the middle of a body). Over-long headers get 431 from the library.
///   The per-IP limit closes extra connections. A request head must arrive within
///   `headerTimeout` of connecting; past three quarters of the total, each new connection
///   closes the oldest waiting one (``ConnectionWatch``).
/// - Streams: `.stream` bodies are sent chunk by chunk as they are produced;
///   `text/event-stream` ones get a `: keepalive` comment when idle for `sseHeartbeat`.
/// - Shutdown (``shutdown()``): stop accepting, end streams, wait for requests in flight,
///   answer what is left 503, resume every suspended connection, stop the library.
///
/// ```swift
/// var router = Router()
/// router.use(AccessLog())
/// router.use(SecurityHeaders())
/// router.on(.get, "/hello/:name") { request in .text("Hello, \(request.parameters["name"]!)") }
///
/// let server = HTTPServer(configuration: .init(port: 8080), responder: router)
/// try server.start()
/// server.shutdownOnSignals()       // SIGINT / SIGTERM: graceful shutdown
/// await server.waitUntilStopped()  // then exit(0)
/// ```
public final class HTTPServer: Sendable {
    private enum Lifecycle {
        case idle
        case running(LibraryDaemon)
        case stopping
        case stopped
    }

    private struct State {
        var lifecycle = Lifecycle.idle
        var port = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var signalled = false
        /// A second signal: stop waiting for requests in flight.
        var hurry = false
    }

    /// The configuration the server was made with.
    public let configuration: Configuration
    private let core: ServerCore
    private let state = Mutex(State())

    /// A server that will answer every request with `responder` (a ``Router``, usually).
    public init(configuration: Configuration = Configuration(), responder: any Responder) {
        self.configuration = configuration
        self.core = ServerCore(responder: responder, configuration: configuration)
    }

    deinit {
        // A server dropped while running must not leave the library calling into freed memory.
        if case .running(let daemon) = state.withLock({ $0.lifecycle }) {
            core.beginDraining()
            core.resumeEverything()
            daemon.stop(listeningSocket: -1)
            core.watch.stop()
            core.heartbeats.stop()
        }
    }

    /// The port the server listens on: the configured one, or the one the system picked
    /// for port 0. Zero before ``start()``.
    public var port: Int { state.withLock { $0.port } }

    /// True between ``start()`` and the beginning of shutdown.
    public var isRunning: Bool {
        state.withLock { if case .running = $0.lifecycle { true } else { false } }
    }

    /// Binds the address and starts serving. Throws ``HTTPServerError`` when the address
    /// cannot be bound or the server was already started.
    public func start() throws(HTTPServerError) {
        try state.withLock { state throws(HTTPServerError) in
            guard case .idle = state.lifecycle else { throw HTTPServerError("The server was already started.") }
            let daemon = try LibraryDaemon(core: core)
            core.watch.startSweeping()
            core.startHeartbeats()
            state.lifecycle = .running(daemon)
            state.port = daemon.port
        }
    }

    /// Stops gracefully: stops accepting connections, ends open streams, lets requests in
    /// flight finish (up to the configured grace period), answers the rest 503, resumes
    /// every suspended connection and stops the library. Returns when the server is stopped;
    /// calling it again, or concurrently, waits for the same stop.
    public func shutdown() async {
        let daemon: LibraryDaemon? = state.withLock { state in
            guard case .running(let daemon) = state.lifecycle else { return nil }
            state.lifecycle = .stopping
            return daemon
        }
        guard let daemon else { return await waitUntilStopped() }

        core.beginDraining()
        let listeningSocket = daemon.quiesce()
        await waitForRequestsInFlight(upTo: configuration.shutdownGracePeriod)
        core.resumeEverything()
        // The 503s and stream ends just released still need a moment to reach the wire.
        await waitForRequestsInFlight(upTo: Self.flushPeriod)
        daemon.stop(listeningSocket: listeningSocket)
        core.watch.stop()
        core.heartbeats.stop()

        let waiters = state.withLock { state in
            state.lifecycle = .stopped
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// How long the last responses of a shutdown get to be sent before connections close.
    static let flushPeriod = Duration.seconds(1)

    private func waitForRequestsInFlight(upTo limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while core.requestsInFlight > 0, ContinuousClock.now < deadline, !state.withLock({ $0.hurry }) {
            do { try await Task.sleep(for: .milliseconds(10)) } catch { break }
        }
    }

    /// Returns once the server has stopped (at once if it never started or already stopped).
    public func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                switch state.lifecycle {
                case .idle, .stopped: return true
                case .running, .stopping:
                    state.waiters.append(continuation)
                    return false
                }
            }
            if ready { continuation.resume() }
        }
    }

    /// Shuts the server down gracefully on the first of `signals` (SIGINT and SIGTERM by
    /// default); a second signal cuts the grace period short. The signals' default action
    /// (terminating the process) is replaced for the rest of the process, so the caller
    /// exits after ``waitUntilStopped()`` returns — with status 0 for a clean stop.
    public func shutdownOnSignals(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        SignalRelay.observe(signals) { [weak self] in self?.handleSignal() }
    }

    private func handleSignal() {
        let first = state.withLock { state in
            defer { state.signalled = true }
            if state.signalled { state.hurry = true }
            return !state.signalled
        }
        if first { Task { await self.shutdown() } }
    }
}

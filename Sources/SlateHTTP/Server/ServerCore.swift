import CMicroHTTPD
import Foundation
import Synchronization

/// What the library's callbacks reach through their `cls` pointer: the responder, the
/// limits, and the registry of suspended connections.
///
/// The registry's lock guards every decision to suspend a connection or to claim the right
/// to resume it, so that shutdown's final sweep cannot race them: once `closing` is set
/// under the lock nothing suspends again, and each waiting connection is resumed exactly
/// once — by its responder or by the sweep. The lock is held only for those decisions;
/// suspending, starting Tasks and resuming happen outside it, and ``suspendsUnderway`` and
/// ``resumesUnderway`` let the sweep wait for a suspend or a resume that was decided but
/// has not happened yet.
final class ServerCore: Sendable {
    struct Registry {
        /// Set when shutdown starts: responses say `Connection: close`, new streams end at once.
        var draining = false
        /// Set by the final sweep: nothing suspends any more; new requests get 503.
        var closing = false
        /// Connections suspended while their responder works.
        var waiting: [ObjectIdentifier: Exchange] = [:]
        /// Streaming responses not yet freed by the library.
        var streams: [ObjectIdentifier: StreamPump] = [:]
    }

    let responder: any Responder
    let configuration: HTTPServer.Configuration
    let registry = Mutex(Registry())
    /// Requests between their request line and their completion.
    let inFlight = Atomic(0)
    /// Resumes claimed in ``deliver(_:to:)`` and not yet made.
    let resumesUnderway = Atomic(0)
    /// Connections registered as waiting in ``start(_:)`` and not yet suspended (or answered
    /// without suspending).
    let suspendsUnderway = Atomic(0)
    /// A lock-free copy of `registry.draining` for the per-response check.
    let draining = Atomic(false)
    /// Deadlines for request heads and idle connections, and eviction under pressure.
    let watch: ConnectionWatch
    /// The `: keepalive` comments of idle event streams.
    let heartbeats: HeartbeatTicker

    init(responder: any Responder, configuration: HTTPServer.Configuration) {
        self.responder = responder
        self.configuration = configuration
        watch = ConnectionWatch(configuration: configuration)
        heartbeats = HeartbeatTicker(interval: configuration.sseHeartbeat)
    }

    /// Starts the thread that sends idle streams their heartbeats.
    func startHeartbeats() {
        heartbeats.start { [weak self] in self?.registry.withLock { Array($0.streams.values) } ?? [] }
    }

    /// Runs the responder and turns every error into a response: an ``HTTPError`` renders
    /// itself; anything else is logged here and answered with a 500 that reveals nothing.
    static func respond(to request: Request, with responder: any Responder) async -> Response {
        do {
            return try await responder.respond(to: request)
        } catch let error as HTTPError {
            return error.response
        } catch is CancellationError where Task.isCancelled {
            // Only shutdown cancels handlers, and their clients were already answered 503.
            return unavailable
        } catch {
            FileHandle.standardError.write(Data("SlateHTTP: \(request.method) \(request.path) failed: \(error)\n".utf8))
            return HTTPError(.internalServerError, code: "internal_error",
                             message: "The server could not complete the request.").response
        }
    }

    static var unavailable: Response {
        var response = HTTPError(.serviceUnavailable, code: "shutting_down",
                                 message: "The server is shutting down; try again shortly.").response
        response.headers["Connection"] = "close"
        return response
    }

    // MARK: Request lifecycle, called from the library's threads

    /// The request line arrived: the state that will live behind `*con_cls`.
    func begin(target: String, connection: OpaquePointer) -> Exchange {
        inFlight.add(1, ordering: .relaxed)
        return Exchange(target: target, connection: ConnectionHandle(pointer: connection))
    }

    /// The library is done with the request (sent, failed, or the daemon is stopping).
    func complete(_ exchange: Exchange) {
        // A stream answered but never sent (its client left while the handler worked).
        let unsent = exchange.state.withLock { state -> Response.Body? in
            if case .answered(let response) = state.phase { return response.body } else { return nil }
        }
        unsent?.abandon()
        watch.requestCompleted(exchange.connection.pointer)
        inFlight.subtract(1, ordering: .releasing)
    }

    /// The largest body whose responder starts on the thread that received it.
    static let immediateBodyLimit = 64 << 10
    /// The most open connections at which a responder starts on the thread that received
    /// its request (see ``HTTPServer/Configuration/startsInPlaceUnderLoad``).
    static let inPlaceConnections = 8

    /// What became of a request whose body is in.
    enum Start {
        /// The responder answered on the library's thread, without waiting: queue this.
        case answered(Response)
        /// The responder is waiting for something; the connection is suspended until it answers.
        case suspended
        /// The server is closing: answer 503 instead.
        case closing
    }

    /// The whole request is in: run the responder in a Task started on this thread, which
    /// runs until the responder first waits (`Task.immediate`), while at most
    /// ``inPlaceConnections`` are open; with more (unless the configuration
    /// `startsInPlaceUnderLoad`), and for a body over ``immediateBodyLimit``, on Swift's
    /// pool, as every responder did before. A responder that never
    /// waits — a short read on SQLite, a refusal — answers here, and its response is queued
    /// at once: no other thread is woken and the connection is never suspended (the hop to
    /// Swift's pool and the resume back cost a single GET about as much as its read).
    /// Otherwise the connection is suspended until ``deliver(_:to:)``.
    ///
    /// The responder's Task may answer on another thread before the suspension below is
    /// made: then it only leaves the response, and this thread resumes the connection
    /// itself once it is suspended.
    func start(_ exchange: Exchange) -> Start {
        let registered = registry.withLock { registry in
            guard !registry.closing else { return false }
            registry.waiting[ObjectIdentifier(exchange)] = exchange
            suspendsUnderway.add(1, ordering: .relaxed)
            return true
        }
        guard registered else { return .closing }
        let request = exchange.makeRequest()
        let responder = self.responder
        let work: @Sendable () async -> Void = {
            let response = await Self.respond(to: request, with: responder)
            self.deliver(response, to: exchange)
        }
        // In place only while few connections are open (or the configuration says so), and
        // never for a large body (an import), which may take its handler milliseconds to
        // parse: that work starts on Swift's pool, not on the thread that serves every
        // connection it holds.
        let fewConnections = watch.openCount.load(ordering: .relaxed) <= Self.inPlaceConnections
        let inPlace = request.body.count <= Self.immediateBodyLimit && (fewConnections || configuration.startsInPlaceUnderLoad)
        guard inPlace else {
            // Suspended first, as every request was before responders could start in place:
            // the responder's answer always finds the connection suspended, and a busy
            // core does its work in the order that measured best (a variant that started
            // the Task first gave the slowest list pages on one core 17–19 ms, against
            // 9–12).
            suspend(exchange)
            let task = Task(operation: work)
            exchange.state.withLock { $0.task = task }
            return .suspended
        }
        let task = Task.immediate(operation: work)
        let answered = exchange.state.withLock { state -> Response? in
            state.task = task
            guard case .answered(let response) = state.phase else { return nil }
            state.phase = .queued
            return response
        }
        if let answered {
            suspendsUnderway.subtract(1, ordering: .releasing)
            return .answered(answered)
        }
        suspend(exchange)
        return .suspended
    }

    /// Suspends the connection of an exchange registered by ``start(_:)``, and resumes it at
    /// once when its responder answered before the suspension was made (``deliver(_:to:)``
    /// only resumes a connection marked suspended). Outside the registry's lock: the library
    /// takes its own and, with epoll, makes a system call; held under ours it made every
    /// other request's suspend and resume wait (a tenth of a single GET's CPU went to that
    /// lock's slow path). The shutdown sweep waits for it (``suspendsUnderway``).
    private func suspend(_ exchange: Exchange) {
        MHD_suspend_connection(exchange.connection.pointer)
        let answeredMeanwhile = exchange.state.withLock { state -> Bool in
            state.suspended = true
            if case .answered = state.phase { return true } else { return false }
        }
        if answeredMeanwhile { MHD_resume_connection(exchange.connection.pointer) }
        suspendsUnderway.subtract(1, ordering: .releasing)
    }

    /// The responder answered: keep the response and, once the connection is suspended,
    /// resume it; the library calls the access handler again, which queues it.
    func deliver(_ response: Response, to exchange: Exchange) {
        let claimed = registry.withLock { registry in
            // Gone when the shutdown sweep already answered 503 for this one.
            guard registry.waiting.removeValue(forKey: ObjectIdentifier(exchange)) != nil else { return false }
            resumesUnderway.add(1, ordering: .relaxed)
            return true
        }
        guard claimed else { return response.body.abandon() }
        let suspended = exchange.state.withLock { state -> Bool in
            state.phase = .answered(response)
            return state.suspended
        }
        if suspended { MHD_resume_connection(exchange.connection.pointer) }
        resumesUnderway.subtract(1, ordering: .releasing)
    }

    /// Records a new streaming response; returns false when it must end at once (draining).
    func register(_ pump: StreamPump) -> Bool {
        registry.withLock { registry in
            registry.streams[ObjectIdentifier(pump)] = pump
            return !registry.draining
        }
    }

    func unregister(_ pump: StreamPump) {
        _ = registry.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(pump)) }
    }

    // MARK: Shutdown

    /// Starts draining: later responses close their connections and every open stream ends.
    func beginDraining() {
        let streams = registry.withLock { registry in
            registry.draining = true
            return Array(registry.streams.values)
        }
        draining.store(true, ordering: .releasing)
        for stream in streams { stream.end() }
    }

    var requestsInFlight: Int { inFlight.load(ordering: .acquiring) }

    /// The last step before the daemon stops: no connection may stay suspended. Handlers
    /// still working are cancelled and their clients get 503; streams end.
    func resumeEverything() {
        let (waiting, streams) = registry.withLock { registry in
            registry.closing = true
            defer { registry.waiting.removeAll() }
            return (Array(registry.waiting.values), Array(registry.streams.values))
        }
        // A connection registered just before the sweep is about to be suspended: resuming
        // it first would leave it suspended for good.
        while suspendsUnderway.load(ordering: .acquiring) > 0 { sched_yield() }
        for exchange in waiting {
            let task = exchange.state.withLock { state in
                state.phase = .answered(Self.unavailable)
                return state.task
            }
            MHD_resume_connection(exchange.connection.pointer)
            task?.cancel()
        }
        for stream in streams { stream.end() }
        // A responder that claimed its resume just before the sweep is about to make it.
        while resumesUnderway.load(ordering: .acquiring) > 0 { sched_yield() }
    }
}

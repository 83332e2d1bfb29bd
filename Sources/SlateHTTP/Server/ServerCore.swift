import CMicroHTTPD
import Foundation
import Synchronization

/// What the library's callbacks reach through their `cls` pointer: the responder, the
/// limits, and the registry of suspended connections.
///
/// One lock (``registry``) guards every decision to suspend or resume a connection that is
/// waiting for its responder, so that shutdown's final sweep cannot race a new suspension:
/// once `closing` is set under the lock, nothing suspends again.
final class ServerCore: Sendable {
    struct Waiting {
        let exchange: Exchange
        let task: Task<Void, Never>
    }

    struct Registry {
        /// Set when shutdown starts: responses say `Connection: close`, new streams end at once.
        var draining = false
        /// Set by the final sweep: nothing suspends any more; new requests get 503.
        var closing = false
        /// Requests between their request line and their completion.
        var inFlight = 0
        /// Connections suspended while their responder works.
        var waiting: [ObjectIdentifier: Waiting] = [:]
        /// Streaming responses not yet freed by the library.
        var streams: [ObjectIdentifier: StreamPump] = [:]
    }

    let responder: any Responder
    let configuration: HTTPServer.Configuration
    let registry = Mutex(Registry())
    /// A lock-free copy of `registry.draining` for the per-response check.
    let draining = Atomic(false)

    init(responder: any Responder, configuration: HTTPServer.Configuration) {
        self.responder = responder
        self.configuration = configuration
    }

    /// Runs the responder and turns every error into a response: an ``HTTPError`` renders
    /// itself; anything else is logged here and answered with a 500 that reveals nothing.
    static func respond(to request: Request, with responder: any Responder) async -> Response {
        do {
            return try await responder.respond(to: request)
        } catch let error as HTTPError {
            return error.response
        } catch is CancellationError {
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
        registry.withLock { $0.inFlight += 1 }
        return Exchange(target: target, connection: ConnectionHandle(pointer: connection))
    }

    /// The library is done with the request (sent, failed, or the daemon is stopping).
    func complete(_ exchange: Exchange) {
        registry.withLock { $0.inFlight -= 1 }
    }

    /// The whole request is in: suspend the connection and run the responder in a Task.
    /// Returns false when the server is closing and the caller should answer 503 instead.
    func suspendAndRespond(_ exchange: Exchange) -> Bool {
        let request = exchange.makeRequest()
        let responder = self.responder
        return registry.withLock { registry in
            guard !registry.closing else { return false }
            MHD_suspend_connection(exchange.connection.pointer)
            // The Task may finish before this closure returns; `deliver` then waits for the lock.
            let task = Task {
                let response = await Self.respond(to: request, with: responder)
                self.deliver(response, to: exchange)
            }
            registry.waiting[ObjectIdentifier(exchange)] = Waiting(exchange: exchange, task: task)
            return true
        }
    }

    /// The responder answered: keep the response and resume the connection; the library
    /// calls the access handler again, which queues it.
    func deliver(_ response: Response, to exchange: Exchange) {
        registry.withLock { registry in
            // Gone when the shutdown sweep already answered 503 for this one.
            guard registry.waiting.removeValue(forKey: ObjectIdentifier(exchange)) != nil else { return }
            exchange.state.withLock { $0.phase = .answered(response) }
            MHD_resume_connection(exchange.connection.pointer)
        }
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

    var requestsInFlight: Int { registry.withLock { $0.inFlight } }

    /// The last step before the daemon stops: no connection may stay suspended. Handlers
    /// still working are cancelled and their clients get 503; streams end.
    func resumeEverything() {
        let streams = registry.withLock { registry in
            registry.closing = true
            for waiting in registry.waiting.values {
                waiting.exchange.state.withLock { $0.phase = .answered(Self.unavailable) }
                MHD_resume_connection(waiting.exchange.connection.pointer)
                waiting.task.cancel()
            }
            registry.waiting.removeAll()
            return Array(registry.streams.values)
        }
        for stream in streams { stream.end() }
    }
}

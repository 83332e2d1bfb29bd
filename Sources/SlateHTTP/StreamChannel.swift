import Foundation
import Synchronization

/// The chunks of a streaming response, written by their producer from any thread and
/// handed straight to the connection: no task, no `AsyncStream` per stream.
///
/// One change fanned out to 10,000 event streams is 10,000 calls to ``send(_:)`` on one
/// thread, each an append under a lock and a resume of the connection, where a stream made
/// of `AsyncStream`s woke two tasks per stream on the way.
///
/// ```swift
/// let channel = StreamChannel()
/// channel.onTermination { listeners.remove(id) }
/// listeners.add(id) { bytes in channel.send(bytes) }
/// return Response(status: .ok, headers: Response.eventStreamHeaders, body: .channel(channel))
/// ```
///
/// Chunks sent before the server takes the response are kept and sent first, in order.
public final class StreamChannel: Sendable {
    private struct State {
        /// Chunks sent before the server attached its pump.
        var early: [Data] = []
        var pump: StreamPump?
        /// An in-process reader (``chunks()``) in place of a connection.
        var reader: AsyncStream<Data>.Continuation?
        /// Over: finished, ended by the server, or the client went away. Chunks sent early
        /// are still delivered when the server attaches after a ``finish()``.
        var over = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Sends `chunk` after every chunk sent before it. Returns false when the stream is
    /// over and nothing more reaches the client (it went away, read too slowly, or the
    /// server is stopping).
    @discardableResult
    public func send(_ chunk: Data) -> Bool {
        guard !chunk.isEmpty else { return !isOver }
        let (accepted, dropped) = state.withLock { state -> (Bool, Bool) in
            guard !state.over else { return (false, false) }
            if let reader = state.reader {
                reader.yield(chunk)
                return (true, false)
            }
            guard let pump = state.pump else {
                state.early.append(chunk)
                return (true, false)
            }
            // Under this lock, so chunks reach the pump in the order they were sent.
            if pump.append(chunk, isHeartbeat: false) { return (true, false) }
            return (false, true)
        }
        if dropped { terminate() }
        return accepted
    }

    /// Ends the stream: what was sent is still delivered, then the response ends. The
    /// termination handlers run now.
    public func finish() {
        markOver()?.end()
    }

    /// Runs `handler` once when the stream is over — finished by its producer, ended by the
    /// server (shutdown), or its client gone — at once if it is over already.
    public func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.over else {
                state.handlers.append(handler)
                return false
            }
            return true
        }
        if now { handler() }
    }

    /// True once the stream is over.
    public var isOver: Bool { state.withLock { $0.over } }

    /// The chunks as an async sequence, read in-process instead of by a connection (tests,
    /// a relay): what was sent so far, then each chunk as it is sent. Ending the iteration
    /// ends the stream. Read it once; the server never takes a channel read this way.
    public func chunks() -> AsyncStream<Data> {
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        let over = state.withLock { state -> Bool in
            for chunk in state.early { continuation.yield(chunk) }
            state.early = []
            state.reader = continuation
            return state.over
        }
        if over { continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.terminate() }
        return chunks
    }

    // MARK: The server's side

    /// The server took the response: chunks from now on go to `pump`, after the early ones.
    func attach(_ pump: StreamPump) {
        let over = state.withLock { state -> Bool in
            state.pump = pump
            for chunk in state.early { _ = pump.append(chunk, isHeartbeat: false) }
            state.early = []
            return state.over
        }
        if over { pump.end() }
    }

    /// The stream is over from the server's side; runs the handlers once.
    func terminate() { markOver() }

    /// Marks the stream over and runs the handlers, the first time; answers the pump
    /// attached by then (the one ``finish()`` ends; one attached later ends in `attach`).
    @discardableResult
    private func markOver() -> StreamPump? {
        let (handlers, reader, pump) = state.withLock { state -> ([@Sendable () -> Void], AsyncStream<Data>.Continuation?, StreamPump?) in
            guard !state.over else { return ([], nil, state.pump) }
            state.over = true
            defer { state.handlers = [] }
            return (state.handlers, state.reader, state.pump)
        }
        reader?.finish()
        for handler in handlers { handler() }
        return pump
    }
}

extension Response.Body {
    /// A streaming body's chunks, read in-process (``StreamChannel/chunks()`` for a
    /// channel); nil for a whole body or a file.
    public var chunks: AsyncStream<Data>? {
        switch self {
        case .stream(let chunks): chunks
        case .channel(let channel): channel.chunks()
        case .data, .file: nil
        }
    }

    /// The response will never be sent: a channel's producer is told (its termination
    /// handlers run), as a dropped `AsyncStream` tells its own.
    func abandon() {
        if case .channel(let channel) = self { channel.terminate() }
    }
}

extension StreamPump.Source {
    /// Tells the producer nothing more will be sent: a channel's termination handlers run;
    /// a sequence learns it from its cancelled task.
    func terminate() {
        if case .channel(let channel) = self { channel.terminate() }
    }
}

import CMicroHTTPD
import Foundation
import Synchronization

/// Feeds one streaming response: chunks come into a buffer — copied by a Task from a
/// ``Response/Body/stream(_:)``, or appended by the producer itself through a
/// ``StreamChannel`` — and the library's content reader takes them out on its own thread.
///
/// When the buffer is empty the reader suspends the connection (returning 0 without a
/// suspension would make the library spin); the next chunk, heartbeat or the end resumes it.
/// Both sides decide under one lock, so a resume always follows its suspension.
/// Heartbeats come from the core's one ``HeartbeatTicker``, not from a timer per stream.
final class StreamPump: Sendable {
    /// An SSE comment line: ignored by EventSource, enough to keep proxies and the
    /// connection alive, and the write that reveals a client that has gone.
    static let heartbeatFrame = Data(": keepalive\n\n".utf8)
    /// A client that reads slower than events arrive is dropped past this much backlog.
    static let backlogLimit = 4 << 20

    /// Where the chunks come from.
    enum Source: Sendable {
        case sequence(AsyncStream<Data>)
        case channel(StreamChannel)
    }

    private struct State {
        var buffer: [UInt8] = []
        var finished = false
        var failed = false
        var suspended = false
        var wroteSinceTick = false
        var task: Task<Void, Never>?
    }

    private let source: Source
    private let connection: ConnectionHandle
    /// True for `text/event-stream`: the ticker sends it heartbeats when idle.
    let wantsHeartbeats: Bool
    /// Strong, yet no leak: the core's registry lets go of the pump in ``released()``, which
    /// the library always calls, at the latest when the daemon stops.
    private let core: ServerCore
    private let state = Mutex(State())

    init(source: Source, connection: ConnectionHandle, wantsHeartbeats: Bool, core: ServerCore) {
        self.source = source
        self.connection = connection
        self.wantsHeartbeats = wantsHeartbeats
        self.core = core
    }

    /// Starts taking chunks, or ends at once when the server is already draining.
    func start(ended: Bool) {
        switch source {
        case .channel(let channel):
            channel.attach(self)
            if ended { end() }
        case .sequence(let chunks):
            let task = Task {
                if !ended {
                    for await chunk in chunks where !chunk.isEmpty { _ = self.append(chunk, isHeartbeat: false) }
                }
                self.end()
            }
            let alreadyOver = state.withLock { state in
                state.task = task
                return state.finished
            }
            // Released (or ended) before the task was stored: it could not be cancelled then.
            if alreadyOver { task.cancel() }
        }
    }

    /// Adds bytes for the reader and wakes the connection if it is waiting. False when the
    /// stream is over, or ends now because the client reads too slowly (its backlog is
    /// dropped and the connection ends with an error).
    /// A channel learns of a drop from the false (its `send` holds its own lock here), a
    /// sequence from its cancelled task.
    func append(_ chunk: Data, isHeartbeat: Bool) -> Bool {
        state.withLock { state in
            guard !state.finished else { return false }
            state.buffer.append(contentsOf: chunk)
            if !isHeartbeat { state.wroteSinceTick = true }
            let accepted = state.buffer.count <= Self.backlogLimit
            if !accepted {
                state.buffer = []
                state.failed = true
                state.finished = true
                state.task?.cancel()
            }
            wake(&state)
            return accepted
        }
    }

    /// A heartbeat, when nothing was written since the last tick and nothing is waiting.
    func tick() {
        let idle = state.withLock { state in
            defer { state.wroteSinceTick = false }
            return !state.finished && !state.wroteSinceTick && state.buffer.isEmpty
        }
        if idle { _ = append(Self.heartbeatFrame, isHeartbeat: true) }
    }

    /// Ends the stream: what is buffered is still sent, then the final chunk. The source is
    /// told (a sequence's task is cancelled, so its producer's `onTermination` runs; a
    /// channel's termination handlers run).
    func end() {
        state.withLock { state in
            state.finished = true
            state.task?.cancel()
            wake(&state)
        }
        source.terminate()
    }

    private func wake(_ state: inout State) {
        guard state.suspended else { return }
        state.suspended = false
        MHD_resume_connection(connection.pointer)
    }

    /// The client closed its end: nothing more can reach it. The stream ends with an error
    /// and the connection is resumed, so the library closes it (and reports it completed)
    /// now rather than at the next write.
    func clientWentAway() {
        state.withLock { state in
            state.buffer = []
            state.failed = true
            state.finished = true
            state.task?.cancel()
            wake(&state)
        }
        source.terminate()
    }

    /// The content reader, on the library's thread: copies up to `capacity` bytes, ends the
    /// stream, or suspends the connection until there is something to send.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state in
            if !state.buffer.isEmpty {
                let count = min(capacity, state.buffer.count)
                state.buffer.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: count)
                }
                state.buffer.removeFirst(count)
                return count
            }
            if state.finished { return state.failed ? slate_mhd_end_with_error() : slate_mhd_end_of_stream() }
            state.suspended = true
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// The library freed the response: the client is gone or the stream was sent.
    func released() {
        state.withLock { state in
            state.finished = true
            state.suspended = false
            state.task?.cancel()
        }
        source.terminate()
        core.unregister(self)
    }
}

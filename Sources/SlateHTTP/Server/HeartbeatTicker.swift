import Foundation
import Synchronization

/// Sends each idle event stream its `: keepalive` comment: one thread for every stream of a
/// server, where each stream once had a task sleeping on a timer of its own.
///
/// Every `interval` it ticks the streams that want heartbeats; a stream sends one when
/// nothing was written to it since the previous tick (``StreamPump/tick()``), so an idle
/// stream hears from the server at least every two intervals. A real thread, not a task:
/// heartbeats keep going while every task waits (a writer blocked by another process).
final class HeartbeatTicker: Sendable {
    private let interval: Duration
    private let condition = NSCondition()
    private let stopped = Atomic(false)

    init(interval: Duration) { self.interval = interval }

    /// Starts ticking the streams `streams()` answers, until ``stop()``.
    func start(streams: @escaping @Sendable () -> [StreamPump]) {
        let (seconds, attoseconds) = interval.components
        let period = max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
        let thread = Thread { [self] in
            while true {
                condition.lock()
                let deadline = Date(timeIntervalSinceNow: period)
                while !stopped.load(ordering: .acquiring), Date() < deadline { _ = condition.wait(until: deadline) }
                condition.unlock()
                if stopped.load(ordering: .acquiring) { return }
                for stream in streams() where stream.wantsHeartbeats { stream.tick() }
            }
        }
        thread.name = "slate-heartbeats"
        thread.start()
    }

    /// Stops the thread (it wakes at once).
    func stop() {
        condition.lock()
        stopped.store(true, ordering: .releasing)
        condition.signal()
        condition.unlock()
    }
}

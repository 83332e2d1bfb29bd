import Foundation

/// Process signals delivered as ordinary calls (see the relay's notes on why a plain
/// Dispatch signal source is not enough on Linux).
///
/// ```swift
/// ProcessSignals.observe([SIGHUP]) { reloadConfiguration() }
/// ```
public enum ProcessSignals {
    /// Calls `observer` on a Dispatch queue each time one of `signals` arrives; the
    /// signals' default actions are replaced for the rest of the process. Observers of
    /// the same signal are all called (``HTTPServer/shutdownOnSignals(_:)`` is one).
    public static func observe(_ signals: [Int32], _ observer: @escaping @Sendable () -> Void) {
        SignalRelay.observe(signals, observer)
    }
}

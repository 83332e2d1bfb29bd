import Foundation
import Synchronization

/// Counts failed sign-ins per account name and client address; after `maximumFailures`
/// within `window`, further attempts are refused (429) until the oldest failure ages out.
final class LoginLimiter: Sendable {
    private let failures = Mutex<[String: [Date]]>([:])
    let maximumFailures: Int
    let window: TimeInterval

    init(maximumFailures: Int = 5, window: TimeInterval = 15 * 60) {
        self.maximumFailures = maximumFailures
        self.window = window
    }

    private func key(_ name: String, _ address: String) -> String { name.lowercased() + "|" + address }

    /// Seconds to wait before trying again, or nil when an attempt is allowed now.
    func retryAfter(name: String, address: String, now: Date) -> Int? {
        failures.withLock { table in
            let recent = (table[key(name, address)] ?? []).filter { now.timeIntervalSince($0) < window }
            table[key(name, address)] = recent
            guard recent.count >= maximumFailures, let oldest = recent.first else { return nil }
            return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    func recordFailure(name: String, address: String, now: Date) {
        failures.withLock { $0[key(name, address), default: []].append(now) }
    }

    func recordSuccess(name: String, address: String) {
        _ = failures.withLock { $0.removeValue(forKey: key(name, address)) }
    }
}

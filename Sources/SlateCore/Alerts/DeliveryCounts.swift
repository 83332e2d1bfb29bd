import Synchronization

/// One count of `/metrics`' alert deliveries.
public struct DeliveryCount: Sendable, Hashable {
    /// `page`, `webhook`, `email`, `push`.
    public let channel: String
    /// `sent`, `retried`, `failed` or `skipped`.
    public let outcome: String
    public let count: Int

    public init(channel: String, outcome: String, count: Int) {
        self.channel = channel
        self.outcome = outcome
        self.count = count
    }
}

/// Deliveries made since the start, by channel and outcome.
final class DeliveryCounter: Sendable {
    private let counts = Mutex<[DeliveryCountKey: Int]>([:])

    struct DeliveryCountKey: Hashable {
        let channel: String
        let outcome: String
    }

    func count(_ channel: String, _ outcome: String) {
        counts.withLock { $0[DeliveryCountKey(channel: channel, outcome: outcome), default: 0] += 1 }
    }

    func snapshot() -> [DeliveryCount] {
        counts.withLock { counts in
            counts.map { DeliveryCount(channel: $0.key.channel, outcome: $0.key.outcome, count: $0.value) }
                .sorted { ($0.channel, $0.outcome) < ($1.channel, $1.outcome) }
        }
    }
}

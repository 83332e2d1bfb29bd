import Foundation
import SlateCore
import Synchronization

/// The Web Push channel: one encrypted message (RFC 8291) per alert and device, signed for
/// the push service with the server's VAPID key (RFC 8292). The service worker shows it
/// with Complete and Snooze actions. A push service that answers 404 or 410 has dropped
/// the subscription: the device is removed and the delivery given up (and logged).
public final class WebPushAlerts: AlertChannel {
    public let name = "push"
    private let container: BoardStore
    private let key: VAPIDKey
    /// The contact the push service may write to (`mailto:` or an https URL).
    private let subject: String
    private let poster = AlertPoster()
    private let log: @Sendable (String) -> Void
    /// VAPID headers by push service origin, and when to make a new one.
    private let tokens = Mutex<[String: (header: String, renewAt: Date)]>([:])

    /// Loads the VAPID key, making and storing one on the first start.
    public init(container: BoardStore, subject: String, log: @escaping @Sendable (String) -> Void) throws {
        try WebPushCrypto.loadLibrary()
        self.container = container
        self.key = try Self.vapidKey(in: container)
        self.subject = subject
        self.log = log
    }

    /// The server's VAPID key, made on first use.
    public static func vapidKey(in container: BoardStore) throws -> VAPIDKey {
        try VAPIDKey.stored(in: container) {
            let pair = try WebPushCrypto.newKeyPair()
            return VAPIDKey(privateKey: Base64URL.encode(Data(pair.privateKey)), publicKey: Base64URL.encode(Data(pair.publicKey)), created: Date())
        }
    }

    public func targets(accountID: UUID, settings: AlertSettings) throws -> [String] {
        try Slate(container: container, accountID: accountID).pushSubscriptions().map { "push:" + $0.id.uuidString.lowercased() }
    }

    public func deliver(_ alert: FiredAlert) async throws {
        let container = self.container
        let subscription = try await BoardThreads.shared.read { () -> PushSubscription? in
            guard let device = alert.device.flatMap(UUID.init(uuidString:)) else { return nil }
            return try PushSubscription.stored(id: device, in: container)
        }
        guard let subscription, subscription.accountID == alert.accountID, let endpoint = URL(string: subscription.endpoint),
              let receiverKey = Base64URL.decode(subscription.p256dh), let secret = Base64URL.decode(subscription.auth)
        else { throw PermanentDeliveryFailure("the push device was removed") }
        let body = try WebPushCrypto.encrypt(Array(AlertPayload.data(alert)), receiverKey: Array(receiverKey), authSecret: Array(secret))
        // RFC 8030 §5.4 Topic: a push service replaces a waiting message of the same topic,
        // so a repeat sent after an interrupted attempt never reaches the device twice while
        // it is offline; the service worker shows it under the same tag (replacing, not adding).
        let headers = [("Content-Encoding", "aes128gcm"), ("Content-Type", "application/octet-stream"), ("TTL", "86400"),
                       ("Urgency", "high"), ("Topic", Self.topic(alert.deliveryID)), ("Authorization", try authorization(for: endpoint))]
        let status = try await poster.post(endpoint, headers: headers, body: body)
        switch status {
        case 200..<300: return
        case 404, 410:
            try await BoardThreads.shared.write(to: container) {
                try Slate(container: container, accountID: alert.accountID).removePushSubscription(subscription.id)
            }
            log("push device \(subscription.id.uuidString.lowercased()) is gone (\(status)): removed")
            throw PermanentDeliveryFailure("the push service answered \(status): the subscription is gone")
        default:
            throw WebhookFailure(status: status)
        }
    }

    /// The VAPID header for the push service at `endpoint`, made once per service and hour:
    /// the token is valid for 12 hours (`exp`), and signing it for every message was a few
    /// percent of sending one.
    private func authorization(for endpoint: URL) throws -> String {
        let now = Date()
        let origin = "\(endpoint.scheme ?? "")://\(endpoint.host ?? "")" + (endpoint.port.map { ":\($0)" } ?? "")
        if let cached = tokens.withLock({ $0[origin] }), now < cached.renewAt { return cached.header }
        let header = try WebPushCrypto.vapidAuthorization(endpoint: endpoint, key: key, subject: subject, now: now)
        tokens.withLock { tokens in
            // Push services are few (one per browser maker); the cache stays small.
            if tokens.count > 64 { tokens.removeAll() }
            tokens[origin] = (header, now.addingTimeInterval(3600))
        }
        return header
    }

    /// The delivery id as a push topic: 32 characters of the URL-safe base64 alphabet.
    static func topic(_ id: UUID) -> String {
        id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}

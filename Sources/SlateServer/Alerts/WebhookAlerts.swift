import CSodium
import Foundation
import SlateCore

/// The webhook channel: one JSON POST per alert to the account's webhook URL (for ntfy,
/// Gotify, Home Assistant…), signed `X-Slate-Signature: sha256=<hex HMAC-SHA256 of the
/// body with the account's webhook secret>`, with `X-Slate-Delivery: <id>` the same on
/// every attempt (and `X-Slate-Redelivery: true` when an earlier attempt may have arrived:
/// a receiver that keeps the ids it has seen drops it, so it acts exactly once). A 2xx answer delivers it; 404 and 410 give up; anything else (or no
/// answer within 15 s) is retried by the scheduler with backoff.
public final class WebhookAlerts: AlertChannel {
    public let name = "webhook"
    private let container: BoardStore
    private let poster = AlertPoster()

    public init(container: BoardStore) {
        self.container = container
    }

    public func targets(accountID: UUID, settings: AlertSettings) throws -> [String] {
        settings.webhookURL == nil ? [] : [name]
    }

    /// Each account's webhook is another receiver, often a small one (a Raspberry Pi).
    public var concurrentSends: Int { 16 }

    public func deliver(_ alert: FiredAlert) async throws {
        let container = self.container
        let settings = try await BoardThreads.shared.read {
            try Slate(container: container, accountID: alert.accountID).alertSettings()
        }
        guard let address = settings.webhookURL, let url = URL(string: address) else {
            throw PermanentDeliveryFailure("the account has no webhook any more")
        }
        let body = AlertPayload.data(alert)
        var headers = [("Content-Type", "application/json"), ("X-Slate-Delivery", alert.deliveryID.uuidString.lowercased())]
        if alert.mayBeRepeat { headers.append(("X-Slate-Redelivery", "true")) }
        headers.append(("X-Slate-Signature", "sha256=" + Self.signature(of: body, key: settings.webhookSecret ?? "")))
        let status = try await poster.post(url, headers: headers, body: Array(body))
        switch status {
        case 200..<300: return
        case 404, 410: throw PermanentDeliveryFailure("the webhook answered \(status)")
        default: throw WebhookFailure(status: status)
        }
    }

    /// Hex HMAC-SHA256 of `body` under `key` (libsodium).
    static func signature(of body: Data, key: String) -> String {
        var state = crypto_auth_hmacsha256_state()
        var output = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        let keyBytes = Array(key.utf8)
        _ = crypto_auth_hmacsha256_init(&state, keyBytes, keyBytes.count)
        _ = body.withUnsafeBytes { crypto_auth_hmacsha256_update(&state, $0.bindMemory(to: UInt8.self).baseAddress, UInt64(body.count)) }
        _ = crypto_auth_hmacsha256_final(&state, &output)
        return output.map { String(format: "%02x", $0) }.joined()
    }
}

/// An answer from a webhook or push service that is worth trying again.
struct WebhookFailure: Error, CustomStringConvertible {
    let status: Int
    var description: String { status == 0 ? "no HTTP answer" : "the endpoint answered \(status)" }
}

import CSodium
import Foundation
import SlateCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The webhook channel: one JSON POST per alert to the account's webhook URL (for ntfy,
/// Gotify, Home Assistant…), signed `X-Slate-Signature: sha256=<hex HMAC-SHA256 of the
/// body with the account's webhook secret>`, with `X-Slate-Delivery: <id>` the same on
/// every attempt (and `X-Slate-Redelivery: true` when an earlier attempt may have arrived:
/// a receiver that keeps the ids it has seen drops it, so it acts exactly once). A 2xx answer delivers it; 404 and 410 give up; anything else (or no
/// answer within 10 s) is retried by the scheduler with backoff.
public final class WebhookAlerts: AlertChannel {
    public let name = "webhook"
    private let container: BoardStore
    private let session: URLSession

    public init(container: BoardStore) {
        self.container = container
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.timeoutIntervalForResource = 15
        session = URLSession(configuration: configuration)
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
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(alert.deliveryID.uuidString.lowercased(), forHTTPHeaderField: "X-Slate-Delivery")
        if alert.mayBeRepeat { request.setValue("true", forHTTPHeaderField: "X-Slate-Redelivery") }
        request.setValue("sha256=" + Self.signature(of: body, key: settings.webhookSecret ?? ""), forHTTPHeaderField: "X-Slate-Signature")
        let (_, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
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

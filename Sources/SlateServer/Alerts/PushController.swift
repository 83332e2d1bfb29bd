import Foundation
import SlateCore
import SlateHTTP

/// `/api/v1/push`: the server's VAPID public key (the web app subscribes with it) and the
/// account's Web Push devices.
struct PushController {
    let context: APIContext

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/push/key", key)
        router.on(.get, "/api/v1/push/devices", devices)
        router.on(.post, "/api/v1/push/devices", add)
        router.on(.delete, "/api/v1/push/devices/:id", remove)
    }

    /// `{"publicKey": base64url}`: the applicationServerKey for `pushManager.subscribe`.
    @Sendable func key(_ request: Request) async throws -> Response {
        _ = try await context.authenticate(request)
        let container = context.container
        let key = try await BoardThreads.shared.write(to: container) { try domain { try WebPushAlerts.vapidKey(in: container) } }
        return context.json(["publicKey": key.publicKey])
    }

    @Sendable func devices(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in
            context.json(["devices": try domain { try slate.pushSubscriptions() }.map(Self.json)])
        }
    }

    /// `{"endpoint", "p256dh", "auth", "label"}` (the subscription's `toJSON()` keys, flattened).
    @Sendable func add(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let body = try JSONBody(request, allowed: ["endpoint", "p256dh", "auth", "label"])
            let device = try domain {
                try slate.addPushSubscription(endpoint: try body.requiredString("endpoint"), p256dh: try body.requiredString("p256dh"),
                                              auth: try body.requiredString("auth"), label: try body.string("label").value ?? "")
            }
            return context.json(Self.json(device), status: .created)
        }
    }

    @Sendable func remove(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            try domain { try slate.removePushSubscription(try context.id(request)) }
            return Response(status: .noContent)
        }
    }

    /// A device without its keys; the endpoint shown by its host only.
    static func json(_ device: PushSubscription) -> [String: Any] {
        ["id": device.id.uuidString.lowercased(), "label": device.label, "service": URL(string: device.endpoint)?.host ?? "",
         "created": Timestamp.format(device.created)]
    }
}

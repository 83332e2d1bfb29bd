import CSodium
import Foundation
import SlateCore
import SlateHTTP

/// `/api/v1/alerts` and a task's snooze and dismiss: what fires next, the account's alert
/// settings (default alerts, webhook, email), and acting on an alert.
struct AlertsController {
    let context: APIContext

    static let settingsFields: Set<String> = ["timedDefaults", "allDayDefaults", "webhookURL", "email", "newWebhookSecret"]

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/alerts", upcoming)
        router.on(.get, "/api/v1/alerts/settings", settings)
        router.on(.patch, "/api/v1/alerts/settings", updateSettings)
        router.on(.post, "/api/v1/alerts/test", sendTest)
        router.on(.post, "/api/v1/tasks/:id/snooze", snooze)
        router.on(.post, "/api/v1/tasks/:id/dismiss", dismiss)
    }

    /// `GET /alerts`: the next alert of each active task, soonest first (at most 100).
    @Sendable func upcoming(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in
            let upcoming = try domain { try slate.upcomingAlerts(limit: 100) }
            return context.json(["alerts": upcoming.map { alert in
                ["taskId": alert.task.id.uuidString.lowercased(), "number": alert.task.number, "title": alert.task.title,
                 "fireAt": Timestamp.format(alert.fireAt), "snoozed": alert.isSnoozed] as [String: Any]
            }])
        }
    }

    @Sendable func settings(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in context.json(Self.json(try domain { try slate.alertSettings() })) }
    }

    /// `PATCH /alerts/settings`: any of the fields; `webhookURL: null` removes the webhook
    /// and its secret, `email: null` the address. Setting a webhook makes its signing secret,
    /// as does `newWebhookSecret: true`: a new secret is in this answer only (`webhookSecret`),
    /// never shown again (other answers have null).
    @Sendable func updateSettings(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let body = try JSONBody(request, allowed: Self.settingsFields)
            var settings = try domain { try slate.alertSettings() }
            for (field, keyPath) in [("timedDefaults", \AlertSettings.timedDefaults), ("allDayDefaults", \.allDayDefaults)] {
                switch try body.strings(field) {
                case .absent: break
                case .null: settings[keyPath: keyPath] = []
                case .value(let texts): settings[keyPath: keyPath] = try domain { try TaskAlert.parseList(texts, field: field) }
                }
            }
            var madeSecret = false
            switch try body.string("webhookURL") {
            case .absent: break
            case .null:
                settings.webhookURL = nil
                settings.webhookSecret = nil
            case .value(let url):
                settings.webhookURL = url
                madeSecret = settings.webhookSecret == nil
            }
            if case .value(true) = try body.bool("newWebhookSecret") {
                guard settings.webhookURL != nil else {
                    throw SlateError.invalid(field: "newWebhookSecret", message: "There is no webhook to make a secret for; set webhookURL first.").httpError
                }
                madeSecret = true
            }
            if madeSecret { settings.webhookSecret = Self.newSecret() }
            switch try body.string("email") {
            case .absent: break
            case .null: settings.email = nil
            case .value(let email): settings.email = email
            }
            try domain { try slate.saveAlertSettings(settings) }
            return context.json(Self.json(try domain { try slate.alertSettings() }, showingSecret: madeSecret))
        }
    }

    /// `POST /alerts/test`: a test alert through every channel and device of the account,
    /// sent by the scheduler within moments (`202`, with the made-up task's id).
    @Sendable func sendTest(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            _ = try JSONBody(request, allowed: [])
            let id = try domain { try slate.requestTestAlert() }
            return context.json(["taskId": id.uuidString.lowercased(), "title": TestAlert.title], status: HTTPStatus(202, "Accepted"))
        }
    }

    /// `POST /tasks/{id}/snooze {"until": "10m" | "1h" | "tomorrow" | ISO moment}`.
    @Sendable func snooze(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let id = try context.id(request)
            let text = try JSONBody(request, allowed: ["until"]).requiredString("until")
            let until = try domain { try slate.snoozeMoment(text) }
            try domain { try slate.snoozeAlert(taskID: id, until: until) }
            return context.json(["taskId": id.uuidString.lowercased(), "snoozedUntil": Timestamp.format(until)])
        }
    }

    /// `POST /tasks/{id}/dismiss`: the alerts due so far are done.
    @Sendable func dismiss(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let id = try context.id(request)
            try domain { try slate.dismissAlert(taskID: id) }
            return context.json(["taskId": id.uuidString.lowercased(), "snoozedUntil": NSNull()])
        }
    }

    static func json(_ settings: AlertSettings, showingSecret: Bool = false) -> [String: Any] {
        [
            "timedDefaults": settings.timedDefaults.map(\.text),
            "allDayDefaults": settings.allDayDefaults.map(\.text),
            "webhookURL": settings.webhookURL ?? NSNull(),
            "webhookSecret": (showingSecret ? settings.webhookSecret : nil) ?? NSNull(),
            "email": settings.email ?? NSNull(),
        ]
    }

    /// 32 random bytes in hex (libsodium's generator).
    static func newSecret() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        randombytes_buf(&bytes, bytes.count)
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}

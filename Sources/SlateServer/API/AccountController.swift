import Foundation
import SlateCore
import SlateHTTP

/// `/api/v1/account`: the signed-in account's name and settings (its default time zone).
struct AccountController {
    let context: APIContext

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/account", show)
        router.on(.patch, "/api/v1/account", update)
    }

    @Sendable func show(_ request: Request) async throws -> Response {
        let accountID = try await context.authenticate(request)
        return try await BoardThreads.shared.read { try representation(of: accountID) }
    }

    /// `PATCH /account {"timeZone": "Europe/Paris" | null}`: null goes back to the server's zone.
    @Sendable func update(_ request: Request) async throws -> Response {
        let accountID = try await context.authenticate(request)
        let body = try JSONBody(request, allowed: ["timeZone"])
        let directory = AccountDirectory(container: context.container)
        let zone = try body.string("timeZone")
        return try await BoardThreads.shared.write(to: context.container) {
            switch zone {
            case .absent: break
            case .null: try domain { _ = try directory.setTimeZone(nil, for: accountID) }
            case .value(let name): try domain { _ = try directory.setTimeZone(name, for: accountID) }
            }
            return try representation(of: accountID)
        }
    }

    private func representation(of accountID: UUID) throws -> Response {
        guard let account = try domain({ try AccountDirectory(container: context.container).account(id: accountID) }) else {
            throw HTTPError(.notFound, code: "not_found", message: "No such account.")
        }
        return context.json([
            "name": account.name,
            "timeZone": account.timeZone ?? NSNull(),
            // Foundation names UTC "GMT"; people (and browsers) say UTC.
            "serverTimeZone": TimeZone.current.identifier == "GMT" ? "UTC" : TimeZone.current.identifier,
        ] as [String: Any])
    }
}

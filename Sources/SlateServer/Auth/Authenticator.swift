import Foundation
import SlateCore
import SlateHTTP

/// Who a request is from: a bearer token (API clients) or a session cookie (the web
/// app). Cookie-authenticated changes must carry `X-Requested-With: slate`, a header a
/// cross-site form cannot send, so a forged request from another site is refused.
struct Authenticator: Sendable {
    static let cookieName = "slate_session"
    static let csrfHeader = "X-Requested-With"
    static let csrfValue = "slate"

    let directory: AccountDirectory
    let clock: @Sendable () -> Date

    func accountID(for request: Request) throws -> UUID {
        if let authorization = request.headers["Authorization"] {
            guard authorization.lowercased().hasPrefix("bearer ") else {
                throw unauthorized("Use 'Authorization: Bearer <token>'; create a token with 'slate token create'.")
            }
            let token = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            guard let id = try directory.account(forSecret: Secrets.digest(token), kind: .token, now: clock()) else {
                throw unauthorized("The token is not valid (revoked, expired or mistyped).")
            }
            return id
        }
        guard let session = Self.cookie(Self.cookieName, in: request) else {
            throw unauthorized("Sign in first.")
        }
        guard let id = try directory.account(forSecret: Secrets.digest(session), kind: .session, now: clock()) else {
            throw unauthorized("Your session has expired; sign in again.")
        }
        if ![HTTPMethod.get, .head, .options].contains(request.method), request.headers[Self.csrfHeader] != Self.csrfValue {
            throw HTTPError(.forbidden, code: "csrf", message: "Changes from the web app must send the header \(Self.csrfHeader): \(Self.csrfValue).")
        }
        return id
    }

    func unauthorized(_ message: String) -> HTTPError {
        HTTPError(.unauthorized, code: "unauthorized", message: message, headers: ["WWW-Authenticate": "Bearer realm=\"slate\""])
    }

    /// The value of cookie `name`, if the request sent it.
    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, parts[0] == name { return parts[1] }
            }
        }
        return nil
    }
}

import Foundation
import SlateCore
import SlateHTTP

/// `/api/v1/session`: sign in with a name and password (a cookie session), sign out, and
/// who am I.
struct SessionController: Sendable {
    let authenticator: Authenticator
    let limiter: LoginLimiter
    /// Adds `Secure` to the cookie (served over HTTPS, or behind a TLS proxy).
    let secureCookies: Bool
    let sessionLifetime: TimeInterval = 30 * 86_400

    func addRoutes(to router: inout Router) {
        router.on(.post, "/api/v1/session", signIn)
        router.on(.get, "/api/v1/session", current)
        router.on(.delete, "/api/v1/session", signOut)
    }

    @Sendable func signIn(_ request: Request) async throws -> Response {
        let body = try JSONBody(request, allowed: ["name", "password"])
        let name = try body.requiredString("name")
        let password = try body.requiredString("password")
        let now = authenticator.clock()
        if let wait = limiter.retryAfter(name: name, address: request.remoteAddress, now: now) {
            throw HTTPError(.tooManyRequests, code: "rate_limited",
                            message: "Too many failed sign-ins; try again in \(wait) seconds.", headers: ["Retry-After": String(wait)])
        }
        guard let (account, hash) = try authenticator.directory.passwordHash(forAccountNamed: name),
              Secrets.verify(password, against: hash)
        else {
            limiter.recordFailure(name: name, address: request.remoteAddress, now: now)
            throw HTTPError(.unauthorized, code: "unauthorized", message: "The name or the password is wrong.")
        }
        limiter.recordSuccess(name: name, address: request.remoteAddress)
        let session = Secrets.randomToken()
        try authenticator.directory.addSecret(.session, digest: Secrets.digest(session), for: account.id,
                                              label: request.headers["User-Agent"] ?? "", now: now,
                                              expires: now.addingTimeInterval(sessionLifetime))
        var response = Response.json(JSONSerialization.body(["account": account.name, "csrfHeader": "\(Authenticator.csrfHeader): \(Authenticator.csrfValue)"]))
        response.headers.add("Set-Cookie", cookie(session, maxAge: Int(sessionLifetime)))
        return response
    }

    @Sendable func current(_ request: Request) async throws -> Response {
        let id = try authenticator.accountID(for: request)
        let name = try authenticator.directory.accounts().first { $0.id == id }?.name ?? ""
        return Response.json(JSONSerialization.body(["account": name]))
    }

    @Sendable func signOut(_ request: Request) async throws -> Response {
        _ = try authenticator.accountID(for: request)
        if let session = Authenticator.cookie(Authenticator.cookieName, in: request) {
            try authenticator.directory.removeSecret(Secrets.digest(session), kind: .session)
        }
        var response = Response(status: .noContent)
        response.headers.add("Set-Cookie", cookie("", maxAge: 0))
        return response
    }

    private func cookie(_ value: String, maxAge: Int) -> String {
        "\(Authenticator.cookieName)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secureCookies ? "; Secure" : "")
    }
}

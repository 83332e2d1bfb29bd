import Foundation
import SlateCore
import SlateHTTP

/// `/api/v1/session`: sign in with a name and password (a cookie session), sign out, and
/// who am I.
struct SessionController: Sendable {
    let authenticator: Authenticator
    let guardian: SignInGuard
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
        try guardian.checkBounds(name: name, password: password)
        let now = authenticator.clock()
        let attempt: LoginLimiter.Attempt
        switch try guardian.limiter.begin(name: name, address: request.remoteAddress, now: now) {
        case .refused(let wait):
            throw HTTPError(.tooManyRequests, code: "rate_limited",
                            message: "Too many sign-in attempts; try again in \(wait) seconds.", headers: ["Retry-After": String(wait)])
        case .allowed(let allowed):
            attempt = allowed
        }
        let found = try authenticator.directory.passwordHash(forAccountNamed: name)
        let matches: Bool
        do {
            matches = try await guardian.verify(password, against: found?.1)
        } catch {
            guardian.limiter.abandon(attempt)
            throw error
        }
        guard matches, let (account, _) = found else {
            guardian.limiter.finish(attempt, succeeded: false, now: authenticator.clock())
            throw HTTPError(.unauthorized, code: "unauthorized", message: "The name or the password is wrong.")
        }
        guardian.limiter.finish(attempt, succeeded: true, now: authenticator.clock())
        try purgeExpiredSecrets(now: now)
        let session = Secrets.randomToken()
        try authenticator.directory.addSecret(.session, digest: Secrets.digest(session), for: account.id,
                                              label: request.headers["User-Agent"] ?? "", now: now,
                                              expires: now.addingTimeInterval(sessionLifetime))
        var response = Response.json(JSONSerialization.body(["account": account.name, "csrfHeader": "\(Authenticator.csrfHeader): \(Authenticator.csrfValue)"]))
        response.headers.add("Set-Cookie", cookie(session, maxAge: Int(sessionLifetime)))
        return response
    }

    /// Deletes expired sessions and tokens, at most once a minute (on a successful sign-in).
    private func purgeExpiredSecrets(now: Date) throws {
        guard guardian.claimPurge(now: now) else { return }
        try authenticator.directory.removeExpiredSecrets(now: now)
    }

    /// `GET /session`: who is signed in. Being signed out (no credentials, or a session
    /// cookie that expired or was ended) is an answer, not an error: 200 `{"signedIn":
    /// false}`, so the web app's check at every load logs no failed request. A bearer token
    /// that is not valid is still refused (401): its sender means to be signed in.
    @Sendable func current(_ request: Request) async throws -> Response {
        let id: UUID
        do {
            id = try authenticator.accountID(for: request)
        } catch let error as HTTPError where error.status == .unauthorized && request.headers["Authorization"] == nil {
            return Response.json(JSONSerialization.body(["signedIn": false]))
        }
        let name = try authenticator.directory.accounts().first { $0.id == id }?.name ?? ""
        return Response.json(JSONSerialization.body(["signedIn": true, "account": name]))
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

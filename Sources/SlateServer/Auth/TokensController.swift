import Foundation
import SlateCore
import SlateHTTP

/// `/api/v1/tokens`: the signed-in account's API tokens — list them (label, created, last
/// used, expiry; never the secret), create one (its secret is in that answer only), and
/// revoke one. Works with a session (the web app's settings) or a token.
struct TokensController: Sendable {
    let authenticator: Authenticator
    let administration: AccountAdministration

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/tokens", list)
        router.on(.post, "/api/v1/tokens", create)
        router.on(.delete, "/api/v1/tokens/:id", revoke)
    }

    @Sendable func list(_ request: Request) async throws -> Response {
        let accountID = try authenticator.accountID(for: request)
        let tokens = try domain { try authenticator.directory.tokens(of: accountID) }
        return Response.json(JSONSerialization.body(["tokens": tokens.map { TokenRecord($0).json }]))
    }

    @Sendable func create(_ request: Request) async throws -> Response {
        let accountID = try authenticator.accountID(for: request)
        let body = try JSONBody(request, allowed: ["label", "expiresIn"])
        let label = try body.string("label").value ?? ""
        let lifetime = try domain { try (body.string("expiresIn").value).flatMap { try TokenLifetime.parse($0, field: "expiresIn") } }
        let (token, record) = try domain { try administration.createToken(for: accountID, label: label, lifetime: lifetime) }
        var object = record.json
        object["token"] = token
        var response = Response.json(JSONSerialization.body(object), status: .created)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    @Sendable func revoke(_ request: Request) async throws -> Response {
        let accountID = try authenticator.accountID(for: request)
        guard let text = request.parameters["id"], let id = UUID(idText: text),
              try domain({ try authenticator.directory.revokeToken(id, of: accountID) })
        else {
            throw HTTPError(.notFound, code: "not_found", message: "This account has no token with the id '\(request.parameters["id"] ?? "")'.")
        }
        return Response(status: .noContent)
    }
}

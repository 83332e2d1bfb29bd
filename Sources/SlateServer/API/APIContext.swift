import Foundation
import SlateCore
import SlateHTTP
import SlateStore

/// What every API handler needs: the store, and who is asking.
struct APIContext: Sendable {
    let container: ModelContainer
    /// The account a request acts for; throws 401 when it is not authenticated.
    let authenticate: @Sendable (Request) async throws -> UUID
    let clock: @Sendable () -> Date

    /// The task board of the request's account, in the client's time zone when it sends
    /// `X-Time-Zone` (an IANA name), else the server's.
    func slate(for request: Request) async throws -> Slate {
        let accountID = try await authenticate(request)
        var calendar = Calendar(identifier: .gregorian)
        if let name = request.headers["X-Time-Zone"] {
            guard let zone = TimeZone(identifier: name) else {
                throw HTTPError(.badRequest, code: "invalid_header", message: "X-Time-Zone '\(name)' is not an IANA time zone such as Europe/Paris.", field: "X-Time-Zone")
            }
            calendar.timeZone = zone
        } else {
            calendar.timeZone = .current
        }
        return Slate(container: container, accountID: accountID, calendar: calendar, clock: clock)
    }

    /// A JSON response.
    func json(_ object: Any, status: HTTPStatus = .ok, etag: String? = nil) -> Response {
        var response = Response.json(JSONSerialization.body(object), status: status)
        if let etag { response.headers["ETag"] = etag }
        return response
    }

    /// A path parameter as an id, or a 404 (a malformed id names nothing).
    func id(_ request: Request, _ name: String = "id") throws -> UUID {
        guard let text = request.parameters[name], let id = UUID(uuidString: text) else {
            throw HTTPError(.notFound, code: "not_found", message: "No resource has the id '\(request.parameters[name] ?? "")'.")
        }
        return id
    }
}

import Foundation
import SlateCore
import SlateHTTP
import SlateServer
import SlateStore
import TestDatabases
import Testing

/// An in-process API over a fresh in-memory store, with two accounts and a fixed clock
/// (Sunday 29 November 2026, 10:15 Paris). Requests carry `X-Account: a` or `b`.
struct APIHarness {
    let container: ModelContainer
    let api: SlateAPI
    let accounts: [String: UUID]

    static let now = Date(timeIntervalSince1970: 1_795_943_700)  // 2026-11-29T09:15:00Z

    init() throws {
        container = try Slate.openContainer(path: TestDatabase.freshStore())
        let first = try Slate.ensureAccount(named: "ana", in: container, now: Self.now)
        let second = try Slate.ensureAccount(named: "ben", in: container, now: Self.now)
        let accounts = ["a": first.id, "b": second.id]
        self.accounts = accounts
        api = SlateAPI(container: container, authenticate: { request in
            guard let name = request.headers["X-Account"], let id = accounts[name] else {
                throw HTTPError(.unauthorized, code: "unauthorized", message: "Sign in first.")
            }
            return id
        }, clock: { Self.now })
    }

    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorField: String? { (json["error"] as? [String: Any])?["field"] as? String }
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }

    /// Sends a request as account `as` (nil: anonymous) with an optional JSON body, in the
    /// client time zone `zone` (nil: sends none).
    func send(_ method: HTTPMethod, _ target: String, as account: String? = "a", json: Any? = nil,
              raw: String? = nil, headers: [String: String] = [:], zone: String? = "Europe/Paris") async throws -> Reply {
        var allHeaders = HTTPHeaders()
        if let zone { allHeaders["X-Slate-Time-Zone"] = zone }
        if let account { allHeaders["X-Account"] = account }
        var body = Data()
        if let json {
            body = try JSONSerialization.data(withJSONObject: json)
            allHeaders["Content-Type"] = "application/json"
        } else if let raw {
            body = Data(raw.utf8)
            allHeaders["Content-Type"] = "application/json"
        }
        for (name, value) in headers { allHeaders[name] = value }
        let response = try await api.router.respond(to: Request(method: method, target: target, headers: allHeaders, body: body))
        return Reply(status: response.status.code, headers: response.headers, body: response.bodyData ?? Data())
    }
}

import Foundation
import SlateCore
import SlateHTTP

/// `GET /api/v1/counts`: every number a sidebar shows, in one request — each smart list's
/// count (active tasks; completed tasks for Completed) and each list's active count. A live
/// client reads it once per change instead of one page per smart list; `GET /changes` with
/// `counts=true` carries the same object beside the changes.
struct CountsController {
    let context: APIContext

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/counts", counts)
    }

    @Sendable func counts(_ request: Request) async throws -> Response {
        let slate = try await context.slate(for: request)
        if let unknown = request.query.map(\.name).first {
            throw HTTPError(.badRequest, code: "invalid_parameter", message: "'\(unknown)' is not a parameter here; this takes none.", field: unknown)
        }
        let context = self.context
        return try await slate.read { slate in context.json(try Self.counts(slate, context)) }
    }

    /// The counts of `slate`'s account, as JSON values (call it on the board's read threads,
    /// inside `Slate.read`, as every blocking read is):
    /// `{"revision": 42, "smartLists": {"all": 9, "today": 2, …}, "lists": {"<id>": 4, …}}`.
    /// The revision is read first, so a change that lands meanwhile is at worst counted
    /// twice (its event follows and the client counts again), never missed.
    static func counts(_ slate: Slate, _ context: APIContext) throws -> [String: Any] {
        let revision = try domain { try slate.revision() }
        var smart: [String: Int] = [:]
        for list in SmartList.all {
            let status: TaskQuery.Status = list.scope == .completed ? .completed : .active
            smart[list.name] = try context.count(TaskQuery(scope: list.scope, status: status), slate)
        }
        var lists: [String: Int] = [:]
        for summary in try domain({ try slate.lists() }) {
            lists[summary.list.id.uuidString.lowercased()] = summary.activeCount
        }
        return ["revision": revision, "smartLists": smart, "lists": lists]
    }

    /// The shape of `counts(_:_:)`, for the OpenAPI document.
    static var schema: [String: Any] {
        let counts: [String: Any] = ["type": "object", "additionalProperties": ["type": "integer", "minimum": 0]]
        return OpenAPIDocument.object(["revision": ["type": "integer"], "smartLists": counts, "lists": counts],
                                      required: ["revision", "smartLists", "lists"])
    }
}

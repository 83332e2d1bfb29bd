import Foundation
import SlateCore
import SlateHTTP

/// `/api/v1/lists`: the caller's lists.
struct ListsController {
    let context: APIContext

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/lists", list)
        router.on(.post, "/api/v1/lists", create)
        router.on(.get, "/api/v1/lists/:id", show)
        router.on(.patch, "/api/v1/lists/:id", update)
        router.on(.delete, "/api/v1/lists/:id", delete)
        router.on(.post, "/api/v1/lists/:id/move", move)
    }

    @Sendable func list(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in
            let sort = try request.queryValue("sort").map { value -> ListSort in
                guard let sort = ListSort(rawValue: value) else {
                    throw HTTPError(.badRequest, code: "invalid_parameter", message: "'sort' must be manual or name; got '\(value)'.", field: "sort")
                }
                return sort
            } ?? .manual
            let summaries = try domain { try slate.lists(sortedBy: sort) }
            return context.json(["lists": ListRecordJSON(array: summaries)])
        }
    }

    @Sendable func show(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in
            return try response(for: try context.id(request), slate: slate)
        }
    }

    @Sendable func create(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let body = try JSONBody(request, allowed: ["name", "color", "icon"])
            let list = try domain {
                try slate.createList(name: try body.requiredString("name"), color: try body.string("color").value, icon: try body.string("icon").value)
            }
            var response = try response(for: list.id, slate: slate, status: .created)
            response.headers["Location"] = "/api/v1/lists/\(list.id.uuidString.lowercased())"
            return context.stamped(response, by: slate)
        }
    }

    @Sendable func update(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let id = try context.id(request)
            let expected = try ETag.expectedRevision(request)
            let body = try JSONBody(request, allowed: ["name", "color", "icon"])
            try withCurrentOnConflict(id, slate) {
                _ = try slate.updateList(id, name: try body.string("name").value, color: try body.string("color").value,
                                         icon: try body.string("icon").value, expectedRevision: expected)
            }
            return context.stamped(try response(for: id, slate: slate), by: slate)
        }
    }

    /// `DELETE /lists/:id?tasks=keep|delete` — the caller must say what happens to the tasks.
    @Sendable func delete(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let id = try context.id(request)
            guard let choice = request.queryValue("tasks").flatMap(ListDeletion.init(rawValue:)) else {
                throw HTTPError(.badRequest, code: "invalid_parameter",
                                message: "'tasks' must say what happens to the list's tasks: keep (they move to the Inbox) or delete.", field: "tasks")
            }
            let expected = try ETag.expectedRevision(request)
            try withCurrentOnConflict(id, slate) { try slate.deleteList(id, tasks: choice, expectedRevision: expected) }
            return context.stamped(Response(status: .noContent), by: slate)
        }
    }

    /// Runs a change of list `id`; a 412 it answers carries the list as it is now (`current`),
    /// as a task's does, so that the client can show what changed without another read.
    private func withCurrentOnConflict(_ id: UUID, _ slate: Slate, _ change: () throws -> Void) throws {
        do {
            try domain(change)
        } catch var error as HTTPError where error.status == .preconditionFailed {
            if let current = try? slate.lists().first(where: { $0.list.id == id }) {
                error.details = JSONSerialization.body(["current": representation(current)])
            }
            throw error
        }
    }

    /// `POST /lists/:id/move {"before": id|null}`
    @Sendable func move(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let id = try context.id(request)
            let body = try JSONBody(request, allowed: ["before"])
            let before = try body.uuid("before").value
            _ = try domain { try slate.list(id: id) }
            if let before { try reference("before") { _ = try slate.list(id: before) } }
            guard before != id else {
                throw HTTPError(.unprocessableContent, code: "invalid_field", message: "A list cannot be moved before itself.", field: "before")
            }
            try domain { try slate.moveList(id, before: before) }
            return context.stamped(try response(for: id, slate: slate), by: slate)
        }
    }

    private func response(for id: UUID, slate: Slate, status: HTTPStatus = .ok) throws -> Response {
        guard let summary = try domain({ try slate.lists() }).first(where: { $0.list.id == id }) else {
            throw HTTPError(.notFound, code: "not_found", message: "No list with id \(id.uuidString.lowercased()).")
        }
        return context.json(representation(summary), status: status, etag: ETag.revision(summary.revision))
    }

    private func representation(_ summary: ListSummary) -> ListRecordJSON { ListRecordJSON(summary) }
}

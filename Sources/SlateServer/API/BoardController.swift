import Foundation
import SlateCore
import SlateHTTP

/// Whole-board operations: batches, clear completed, undo/redo, statistics, changes,
/// import and export.
struct BoardController {
    let context: APIContext

    func addRoutes(to router: inout Router) {
        router.on(.post, "/api/v1/tasks/batch", batch)
        router.on(.post, "/api/v1/tasks/clear-completed", clearCompleted)
        router.on(.post, "/api/v1/undo", undo)
        router.on(.post, "/api/v1/redo", redo)
        router.on(.get, "/api/v1/stats", stats)
        router.on(.get, "/api/v1/vocabulary", vocabulary)
        router.on(.get, "/api/v1/changes", changes)
        router.on(.get, "/api/v1/export", export)
        router.on(.post, "/api/v1/import", importData)
    }

    /// `POST /tasks/batch {"action": "complete|reopen|flag|unflag|delete|move", "ids": [...], "before": id}`
    @Sendable func batch(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let body = try JSONBody(request, allowed: ["action", "ids", "before"])
            let action = try body.requiredString("action")
            guard let given = try body.uuids("ids").value, !given.isEmpty, given.count <= Vocabulary.maximumBatchSize else {
                throw HTTPError(.unprocessableContent, code: "invalid_field", message: "'ids' must be an array of 1 to \(Vocabulary.maximumBatchSize) task ids.", field: "ids")
            }
            // An id given twice is one task (each id once, in the order given).
            var seen = Set<UUID>()
            let ids = given.filter { seen.insert($0).inserted }
            try domain {
                switch action {
                case "complete": _ = try slate.setCompleted(ids, true)
                case "reopen": _ = try slate.setCompleted(ids, false)
                case "flag": _ = try slate.setFlagged(ids, true)
                case "unflag": _ = try slate.setFlagged(ids, false)
                case "delete": try slate.deleteTasks(try Self.withoutDescendants(ids, slate))
                case "move":
                    guard ids.count == 1 else {
                        throw SlateError.invalid(field: "ids", message: "'move' takes exactly one id, with 'before' (an id, or null for the end).")
                    }
                    let before = try body.uuid("before").value
                    _ = try slate.task(id: ids[0])
                    if let before { try reference("before") { _ = try slate.task(id: before) } }
                    guard before != ids[0] else { throw SlateError.invalid(field: "before", message: "A task cannot be moved before itself.") }
                    try slate.moveTask(ids[0], before: before)
                default:
                    throw SlateError.invalid(field: "action", message: "'action' must be complete, reopen, flag, unflag, delete or move; got '\(action)'.")
                }
            }
            let revision = try slate.lastChange ?? domain { try slate.revision() }
            return context.stamped(context.json(["action": action, "ids": ids.map { $0.uuidString.lowercased() }, "revision": revision] as [String: Any]), by: slate)
        }
    }

    /// `ids` less those whose parent, grandparent… is also in `ids`: deleting a task deletes
    /// its subtasks, so deleting one again would find nothing (a 404 for a valid selection).
    static func withoutDescendants(_ ids: [UUID], _ slate: Slate) throws -> [UUID] {
        let selected = Set(ids)
        return try ids.filter { id in
            var parent = try slate.task(id: id).model.parentID
            var visited: Set<UUID> = [id]
            while let current = parent, visited.insert(current).inserted {
                if selected.contains(current) { return false }
                parent = try? slate.task(id: current).model.parentID
            }
            return true
        }
    }

    /// `POST /tasks/clear-completed {"listId": id|null}`
    @Sendable func clearCompleted(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let body = try JSONBody(request, allowed: ["listId"])
            let listID = try body.uuid("listId").value
            if let listID { try reference("listId") { _ = try slate.list(id: listID) } }
            let count = try domain { try slate.clearCompleted(in: listID) }
            return context.stamped(context.json(["deleted": count]), by: slate)
        }
    }

    /// `POST /undo {"change": N}` reverts the change a write answered with `Slate-Change: N`,
    /// even after other changes (409 when a later one touched the same tasks or lists);
    /// without `change`, the account's latest change.
    @Sendable func undo(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let body = try JSONBody(request, allowed: ["change"])
            let label: String?
            if let change = try body.integer("change").value {
                guard change > 0 else {
                    throw HTTPError(.unprocessableContent, code: "invalid_field", message: "'change' must be the Slate-Change of a write (a whole number ≥ 1); got \(change).", field: "change")
                }
                label = try domain { try slate.undo(change: change) }
            } else {
                label = try domain { try slate.undo() }
            }
            return context.stamped(context.json(["undone": label.map { $0 as Any } ?? NSNull()]), by: slate)
        }
    }

    @Sendable func redo(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let label = try domain { try slate.redo() }
            return context.stamped(context.json(["redone": label.map { $0 as Any } ?? NSNull()]), by: slate)
        }
    }

    /// `GET /vocabulary`: the names and limits the server accepts (`Vocabulary`).
    @Sendable func vocabulary(_ request: Request) async throws -> Response {
        _ = try await context.authenticate(request)
        var response = context.json(Vocabulary.json)
        response.headers["Cache-Control"] = "private, max-age=3600"
        return response
    }

    @Sendable func stats(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in
            return context.json(PublicJSON.statistics(try domain { try slate.statistics() }, calendar: slate.calendar))
        }
    }

    /// `GET /changes?since=REV`: upserted tasks and lists, deleted ids, and the revision to pass next.
    @Sendable func changes(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in
            let sinceText = request.queryValue("since") ?? "0"
            guard let since = Int(sinceText), since >= 0 else {
                throw HTTPError(.badRequest, code: "invalid_parameter", message: "'since' must be a revision (a whole number ≥ 0); got '\(sinceText)'.", field: "since")
            }
            let changes = try domain { try slate.changes(since: since) }
            // A revision this board has not reached (a client of a board since restored from a
            // backup): answering "nothing changed" would leave the client behind for good.
            guard since <= changes.revision else {
                throw HTTPError(.conflict, code: "resync_required",
                                message: "'since' is revision \(since), which this board has not reached (it is at \(changes.revision): restored from a backup?); read everything again with since=0.",
                                field: "since")
            }
            let lists = try context.listNames(slate)
            let summaries = try domain { try slate.lists() }.filter { summary in changes.lists.contains { $0.id == summary.list.id } }
            var body: [String: Any] = [
                "revision": changes.revision,
                "tasks": TaskJSON(array: changes.tasks, listNames: lists, now: slate.now, calendar: slate.calendar,
                                  subtaskCounts: try domain { try slate.subtaskCounts(of: changes.tasks.map(\.id)) }),
                "lists": ListRecordJSON(array: summaries),
                "deletedTaskIds": changes.deletedTaskIDs.map { $0.uuidString.lowercased() },
                "deletedListIds": changes.deletedListIDs.map { $0.uuidString.lowercased() },
            ]
            // A live client's one request per change: the changes and the sidebar's counts.
            if let counts = request.queryValue("counts") {
                guard counts == "true" || counts == "false" else {
                    throw HTTPError(.badRequest, code: "invalid_parameter", message: "'counts' must be true or false; got '\(counts)'.", field: "counts")
                }
                if counts == "true" { body["counts"] = try CountsController.counts(slate, context) }
            }
            return context.json(body)
        }
    }

    /// `GET /export?format=json|ics|todotxt|taskwarrior`
    @Sendable func export(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in
            let name = request.queryValue("format") ?? "json"
            guard let format = TransferFormat(rawValue: name) else {
                throw HTTPError(.badRequest, code: "invalid_parameter", message: "'format' must be json, ics, todotxt or taskwarrior; got '\(name)'.", field: "format")
            }
            let data = try domain { try slate.export(format) }
            let type = switch format {
            case .json, .taskwarrior: "application/json"
            case .ics: "text/calendar; charset=utf-8"
            case .todotxt: "text/plain; charset=utf-8"
            }
            return Response(status: .ok, headers: ["Content-Type": type, "Content-Disposition": "attachment; filename=\"slate.\(format == .ics ? "ics" : format == .todotxt ? "txt" : "json")\""], body: .data(data))
        }
    }

    /// `POST /import?format=…` with the file as the body; all or nothing. Imports run one
    /// at a time, off the request threads (`ImportQueue`): other accounts' requests wait at
    /// most for an import's final commit.
    @Sendable func importData(_ request: Request) async throws -> Response {
        let slate = try await context.slate(for: request)
        let format = try request.queryValue("format").map { name -> TransferFormat in
            guard let format = TransferFormat(rawValue: name) else {
                throw HTTPError(.badRequest, code: "invalid_parameter", message: "'format' must be json, ics, todotxt or taskwarrior; got '\(name)'.", field: "format")
            }
            return format
        }
        do {
            let body = request.body
            let summary = try await ImportQueue.shared.run { try domain { try slate.importData(body, format: format) } }
            return context.stamped(context.json(["listsCreated": summary.listsCreated, "tasksCreated": summary.tasksCreated, "tasksUpdated": summary.tasksUpdated]), by: slate)
        } catch let error as ImportError {
            // What is wrong with the file, and where; anything else is not the file's fault.
            throw HTTPError(.unprocessableContent, code: "invalid_file", message: error.description, field: "body")
        }
    }
}

import Foundation
import SlateCore
import SlateHTTP

/// `/api/v1/tasks`: the tasks of the caller's account.
struct TasksController {
    let context: APIContext

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/tasks", list)
        router.on(.post, "/api/v1/tasks", create)
        router.on(.post, "/api/v1/tasks/parse", parse)
        router.on(.get, "/api/v1/tasks/:id", show)
        router.on(.patch, "/api/v1/tasks/:id", update)
        router.on(.delete, "/api/v1/tasks/:id", delete)
        router.on(.get, "/api/v1/tasks/:id/subtasks", subtasks)
        router.on(.post, "/api/v1/tasks/:id/subtasks", createSubtask)
    }

    /// `GET /tasks?scope=&list=&status=&search=&priority=&tag=&sort=&limit=&cursor=&counts=`
    @Sendable func list(_ request: Request) async throws -> Response {
        return try await context.read(request, short: request.queryValue("search") == nil) { slate in
            let lists = try context.listNames(slate)
            var query = try TaskQueryParameters.query(from: request, slate: slate, knownLists: lists)
            let wantsActive = try TaskQueryParameters.wantsActiveTotal(request)
            let limit = query.limit ?? 50
            query.limit = limit
            if !wantsActive { try context.expectPage(of: query, slate) }
            let page = try domain { try slate.tasks(query, records: context.records) }
            // A page short of its limit is the last one: its end is the total, no count needed
            // (a fresh search is usually such a page). An empty page past the end says nothing.
            let whole = page.count < limit && (page.count > 0 || query.offset == 0)
            let totals = wantsActive ? try activeTotal(of: query, page: page, whole: whole, slate) : nil
            let total = whole ? query.offset + page.count : try totals?.all ?? context.count(query, slate)
            let next = query.offset + page.count < total ? Cursor.encode(offset: query.offset + page.count) : nil
            var body: [String: Any] = [
                "tasks": TaskJSON(records: page, listNames: lists, now: slate.now, calendar: slate.calendar,
                                  subtaskCounts: try context.subtaskCounts(of: page, slate)),
                "total": total,
                "nextCursor": next ?? NSNull(),
                "revision": try domain { try slate.revision() },
            ]
            if let totals { body["activeTotal"] = totals.active }
            return context.json(body)
        }
    }

    /// The totals beside a page of `query` when `counts=active` asks for its Active count.
    /// Read from the page itself when it holds every active task — it is the whole result,
    /// or the first page in the default order (active tasks first) reaches a completed one —
    /// else counted with the total in one grouped query.
    private func activeTotal(of query: TaskQuery, page: TaskRecords, whole: Bool, _ slate: Slate) throws -> TaskTotals {
        let active = page.activeCount
        if query.offset == 0, whole || (query.sort == .standard && active < page.count) {
            return TaskTotals(all: whole ? page.count : try context.count(query, slate), active: active)
        }
        return try context.totals(query, slate)
    }

    @Sendable func show(_ request: Request) async throws -> Response {
        // The id only names what to read ahead; a bad one is refused inside, after the credential.
        return try await context.read(request, task: try? context.id(request), short: true) { slate in
            let id = try context.id(request)
            let found = try domain { try slate.task(id: id, records: context.records) }
            let lists = try context.listNames(slate)
            let counts = try context.subtaskCounts(of: found.records, slate)
            return context.json(TaskJSON(records: found.records, isArray: false, listNames: lists, now: slate.now,
                                         calendar: slate.calendar, subtaskCounts: counts),
                                etag: ETag.revision(found.revision))
        }
    }

    @Sendable func create(_ request: Request) async throws -> Response {
        return try await context.write(request) { slate in
            let input = TaskInput(body: try JSONBody(request, allowed: TaskInput.fields, listed: TaskInput.listedWhenCreating), calendar: slate.calendar, now: slate.now)
            try input.checkReferences(slate)
            let task = try domain { try slate.addRevisionedTask(try input.draft()) }
            var response = try representation(task.model, revision: task.revision, slate: slate, status: .created)
            response.headers["Location"] = "/api/v1/tasks/\(task.model.id.uuidString.lowercased())"
            return context.stamped(response, by: slate)
        }
    }

    @Sendable func createSubtask(_ request: Request) async throws -> Response {
        return try await context.write(request, task: try? context.id(request)) { slate in
            let parent = try domain { try slate.task(id: try context.id(request)) }.model
            let input = TaskInput(body: try JSONBody(request, allowed: TaskInput.fields, listed: TaskInput.listedWhenCreating), calendar: slate.calendar, now: slate.now)
            try input.checkReferences(slate)
            var draft = try input.draft()
            draft.parentID = parent.id
            let task = try domain { try slate.addRevisionedTask(draft) }
            return context.stamped(try representation(task.model, revision: task.revision, slate: slate, status: .created), by: slate)
        }
    }

    @Sendable func subtasks(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in
            let parent = try domain { try slate.task(id: try context.id(request)) }.model
            let children = try domain { try slate.tasks(TaskQuery(parentID: parent.id, sort: .manual)) }
            let lists = try context.listNames(slate)
            let counts = try domain { try slate.subtaskCounts(of: children.map(\.id)) }
            return context.json(["tasks": TaskJSON(array: children, listNames: lists, now: slate.now, calendar: slate.calendar, subtaskCounts: counts)])
        }
    }

    @Sendable func update(_ request: Request) async throws -> Response {
        // The id only names what to read ahead; a bad one is refused inside, after the credential.
        return try await context.write(request, task: try? context.id(request)) { slate in
            let id = try context.id(request)
            let expected = try ETag.expectedRevision(request)
            let input = TaskInput(body: try JSONBody(request, allowed: TaskInput.fields, listed: TaskInput.listedWhenChanging), calendar: slate.calendar, now: slate.now)
            let patch = try input.patch()
            try input.checkReferences(slate)
            do {
                let task = try domain { try slate.updateRevisionedTask(id, patch, expectedRevision: expected) }
                return context.stamped(try representation(task.model, revision: task.revision, slate: slate), by: slate)
            } catch var error as HTTPError where error.status == .preconditionFailed {
                throw try withCurrent(&error, id: id, slate: slate)
            }
        }
    }

    @Sendable func delete(_ request: Request) async throws -> Response {
        return try await context.write(request, task: try? context.id(request)) { slate in
            let id = try context.id(request)
            let expected = try ETag.expectedRevision(request)
            do {
                _ = try domain { try slate.deleteTasks([id], expectedRevision: expected) }
            } catch var error as HTTPError where error.status == .preconditionFailed {
                throw try withCurrent(&error, id: id, slate: slate)
            }
            return context.stamped(Response(status: .noContent), by: slate)
        }
    }

    /// `POST /tasks/parse {"text": "…"}`: what a quick-entry line means, without saving.
    @Sendable func parse(_ request: Request) async throws -> Response {
        return try await context.read(request) { slate in
            let body = try JSONBody(request, allowed: ["text"])
            let text = try body.requiredString("text")
            let entry: QuickEntry
            do {
                entry = try QuickEntryParser(now: slate.now, calendar: slate.calendar).parse(text)
            } catch {
                throw HTTPError(.unprocessableContent, code: "invalid_field",
                                message: (error as? LocalizedError)?.errorDescription ?? "\(error)", field: "text")
            }
            let list = try entry.listName.map { name in try domain { try slate.list(named: name) } } ?? nil
            return context.json([
                "title": entry.title,
                "due": entry.due.map { $0.isAllDay ? Timestamp.formatDay($0.date, calendar: slate.calendar) : Timestamp.format($0.date) } ?? NSNull(),
                "isAllDay": entry.due?.isAllDay ?? false,
                "priority": entry.priority?.name ?? NSNull(),
                "list": entry.listName ?? NSNull(),
                "listId": list.map { $0.id.uuidString.lowercased() } ?? NSNull(),
                "tags": entry.tags,
                "recurrence": entry.recurrence?.phrase ?? NSNull(),
                "isFlagged": entry.isFlagged,
                "notes": entry.notes ?? NSNull(),
                "alerts": entry.alerts.map { $0.map(\.text) } ?? NSNull(),
                "warnings": entry.warnings,
                "understood": entry.understood.map { ["kind": $0.kind.rawValue, "text": $0.text, "description": $0.description, "start": $0.utf16Range.lowerBound, "end": $0.utf16Range.upperBound] as [String: Any] },
            ] as [String: Any])
        }
    }

    private func representation(_ task: TaskItem, revision: Int, slate: Slate, status: HTTPStatus = .ok) throws -> Response {
        let lists = try context.listNames(slate)
        let counts = try domain { try slate.subtaskCounts(of: [task.id]) }
        return context.json(TaskJSON(task, listNames: lists, now: slate.now, calendar: slate.calendar, subtaskCounts: counts),
                            status: status, etag: ETag.revision(revision))
    }

    /// A 412 carries the current version, so the client can show both and choose.
    private func withCurrent(_ error: inout HTTPError, id: UUID, slate: Slate) throws -> HTTPError {
        let current = try domain { try slate.task(id: id) }
        let lists = try context.listNames(slate)
        let counts = try domain { try slate.subtaskCounts(of: [id]) }
        error.details = JSONSerialization.body(["current": TaskJSON(current.model, listNames: lists, now: slate.now, calendar: slate.calendar, subtaskCounts: counts)])
        error.headers["ETag"] = ETag.revision(current.revision)
        return error
    }
}

/// Opaque page cursors: an offset, base64url-encoded (RFC 4648 §5, no padding) so clients
/// do not build them. Cursors of earlier versions (standard base64) still decode.
enum Cursor {
    static func encode(offset: Int) -> String {
        Base64URL.encode(Data("o:\(offset)".utf8))
    }

    static func decode(_ text: String) -> Int? {
        guard text.utf8.count <= 64, let data = Base64URL.decode(text), let string = String(data: data, encoding: .utf8),
              string.hasPrefix("o:"), let offset = Int(string.dropFirst(2)), offset >= 0 else { return nil }
        return offset
    }
}

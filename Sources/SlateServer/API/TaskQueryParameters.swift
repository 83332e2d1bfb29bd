import Foundation
import SlateCore
import SlateHTTP

/// `GET /tasks` query parameters → a `TaskQuery`, with errors naming the parameter.
enum TaskQueryParameters {
    static let names: Set<String> = ["scope", "list", "status", "search", "priority", "tag", "sort", "limit", "cursor", "parent", "counts"]

    /// - Parameter knownLists: the account's lists as just read (`APIContext.listNames`): a
    ///   `list` among them needs no lookup; any other is looked up, to answer 404 naming it.
    static func query(from request: Request, slate: Slate, knownLists: [UUID: String] = [:]) throws -> TaskQuery {
        if let unknown = request.query.map(\.name).first(where: { !names.contains($0) }) {
            throw invalid(unknown, "is not a parameter here; accepted: \(names.sorted().joined(separator: ", "))")
        }
        // Each once: with two, which one counts would be a guess (limit=3&limit=4).
        var seen: Set<String> = []
        if let repeated = request.query.map(\.name).first(where: { !seen.insert($0).inserted }) {
            throw invalid(repeated, "is given twice; give each parameter once")
        }
        var query = TaskQuery()
        if let scope = request.queryValue("scope") {
            guard let smart = SmartList.named(scope) else { throw invalid("scope", "must be \(SmartList.acceptedForms); got '\(scope)'") }
            query.scope = smart.scope
        }
        if let list = request.queryValue("list") {
            guard let id = UUID(idText: list) else { throw invalid("list", "must be a list id (a UUID); got '\(list)'") }
            if knownLists[id] == nil { try reference("list") { _ = try slate.list(id: id) } }
            query.scope = .list(id)
        }
        if let status = request.queryValue("status") {
            guard let value = TaskQuery.Status(rawValue: status) else { throw invalid("status", "must be all, active or completed; got '\(status)'") }
            query.status = value
        }
        query.search = request.queryValue("search")
        if let priority = request.queryValue("priority") {
            guard let value = Priority(name: priority) else { throw invalid("priority", "must be \(Priority.acceptedForms); got '\(priority)'") }
            query.priority = value
        }
        query.tag = request.queryValue("tag")
        if let sort = request.queryValue("sort") {
            guard let value = TaskQuery.Sort(rawValue: sort) else {
                throw invalid("sort", "must be \(TaskQuery.Sort.acceptedForms); got '\(sort)'")
            }
            query.sort = value
        }
        if let parent = request.queryValue("parent") {
            if parent == "none" {
                query.isTopLevelOnly = true
            } else {
                guard let id = UUID(idText: parent) else { throw invalid("parent", "must be a task id (a UUID) or none; got '\(parent)'") }
                // A task of no one here is a 404 naming it, as a list is (not an empty page).
                try reference("parent") { _ = try slate.task(id: id) }
                query.parentID = id
            }
        }
        if let limit = request.queryValue("limit") {
            guard let value = Int(limit), (1...Vocabulary.maximumPageSize).contains(value) else {
                throw invalid("limit", "must be a whole number from 1 to \(Vocabulary.maximumPageSize); got '\(limit)'")
            }
            query.limit = value
        }
        if let cursor = request.queryValue("cursor") {
            guard let offset = Cursor.decode(cursor) else { throw invalid("cursor", "must be a nextCursor value from an earlier page") }
            query.offset = offset
        }
        return query
    }

    /// Whether the page should carry `activeTotal` (`counts=active`): how many of the
    /// tasks the query matches are active, so a client showing an Active section beside
    /// `total` needs no second request for its count.
    static func wantsActiveTotal(_ request: Request) throws -> Bool {
        guard let counts = request.queryValue("counts") else { return false }
        guard counts == "active" else { throw invalid("counts", "must be active (the page then carries activeTotal); got '\(counts)'") }
        return true
    }

    static func invalid(_ name: String, _ rule: String) -> HTTPError {
        HTTPError(.badRequest, code: "invalid_parameter", message: "'\(name)' \(rule).", field: name)
    }
}

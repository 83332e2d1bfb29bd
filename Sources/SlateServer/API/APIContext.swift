import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// What every API handler needs: the store, and who is asking.
struct APIContext: Sendable {
    let container: BoardStore
    /// The account a request acts for; throws 401 when it is not authenticated.
    let authenticate: @Sendable (Request) async throws -> UUID
    let clock: @Sendable () -> Date
    /// Each account's list names, for naming tasks' lists without reading every list per request.
    let listNames = ListNames()
    /// Totals of task queries, for `GET /tasks` pages.
    let taskCounts = TaskCounts()
    /// Alerts for the account's open pages, sent on its live event streams.
    let pageAlerts = PageAlerts()

    /// The header in which a client names its IANA time zone: quick entry and due phrases
    /// ("fri 5pm") are read in it, and all-day dates are days of it.
    static let timeZoneHeader = "X-Slate-Time-Zone"

    /// The task board of the request's account, in the client's time zone when it sends
    /// `X-Slate-Time-Zone`, else in the account's default zone, else in the server's.
    func slate(for request: Request) async throws -> Slate {
        let accountID = try await authenticate(request)
        let zone: TimeZone
        if let name = request.headers[Self.timeZoneHeader] {
            do {
                zone = try TimeZones.zone(named: name, field: Self.timeZoneHeader)
            } catch let error as SlateError {
                throw HTTPError(.badRequest, code: "invalid_header", message: error.description, field: Self.timeZoneHeader)
            }
        } else {
            let container = self.container
            zone = try await BoardThreads.shared.read { try domain { try AccountDirectory(container: container).timeZone(of: accountID) } }
        }
        return Slate(container: container, accountID: accountID, calendar: TimeZones.calendar(in: zone), clock: clock)
    }

    /// The names of the account's lists by id, read again only after a commit touched lists.
    func listNames(_ slate: Slate) throws -> [UUID: String] {
        let stamp = try domain { try container.boardStamp(lists: true) }
        if let stamp, let names = listNames.names(of: slate.accountID, stamp: stamp) { return names }
        let names = try domain { try slate.listsByID().mapValues(\.name) }
        if let stamp { listNames.remember(names, of: slate.accountID, stamp: stamp) }
        return names
    }

    /// How many tasks `query` matches (limit and offset aside), counted again only after a
    /// commit touched tasks. Views that depend on the time of day are always counted.
    func count(_ query: TaskQuery, _ slate: Slate) throws -> Int {
        var key = query
        key.limit = nil
        key.offset = 0
        let dependsOnTime = key.scope == .today || key.scope == .overdue
        let stamp = dependsOnTime ? nil : try domain { try container.boardStamp(tasks: true) }
        if let stamp, let total = taskCounts.total(of: key, accountID: slate.accountID, stamp: stamp) { return total }
        let total = try domain { try slate.count(query) }
        if let stamp { taskCounts.remember(total, of: key, accountID: slate.accountID, stamp: stamp) }
        return total
    }

    /// The response header that names the change a write made (its revision): what
    /// `POST /undo {"change": N}` takes to revert exactly that change.
    static let changeHeader = "Slate-Change"

    /// `response` with the change the request's writes made, if any.
    func stamped(_ response: Response, by slate: Slate) -> Response {
        guard let change = slate.lastChange else { return response }
        var response = response
        response.headers[Self.changeHeader] = String(change)
        return response
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

/// List names per account, with the change stamp (`BoardStore.changeStamp`) of the
/// lists they were read at.
final class ListNames: Sendable {
    private let cache = Mutex<[UUID: (stamp: Int, names: [UUID: String])]>([:])

    func names(of accountID: UUID, stamp: Int) -> [UUID: String]? {
        cache.withLock { cache in
            guard let entry = cache[accountID], entry.stamp == stamp else { return nil }
            return entry.names
        }
    }

    func remember(_ names: [UUID: String], of accountID: UUID, stamp: Int) {
        cache.withLock { cache in
            if cache.count >= 1024 { cache.removeAll(keepingCapacity: true) }
            cache[accountID] = (stamp, names)
        }
    }
}

/// Totals of task queries per account, with the change stamp of the tasks they were
/// counted at.
final class TaskCounts: Sendable {
    private struct Key: Hashable {
        let accountID: UUID
        let query: TaskQuery
    }

    private let cache = Mutex<[Key: (stamp: Int, total: Int)]>([:])

    func total(of query: TaskQuery, accountID: UUID, stamp: Int) -> Int? {
        cache.withLock { cache in
            guard let entry = cache[Key(accountID: accountID, query: query)], entry.stamp == stamp else { return nil }
            return entry.total
        }
    }

    func remember(_ total: Int, of query: TaskQuery, accountID: UUID, stamp: Int) {
        cache.withLock { cache in
            if cache.count >= 1024 { cache.removeAll(keepingCapacity: true) }
            cache[Key(accountID: accountID, query: query)] = (stamp, total)
        }
    }
}

import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// What every API handler needs: the store, and who is asking.
struct APIContext: Sendable {
    let container: BoardStore
    /// The account a request acts for; throws 401 when it is not authenticated.
    let authenticate: @Sendable (Request) async throws -> UUID
    /// The same check, made on the database thread the caller is already on (a reader, or
    /// the writer inside its group); nil when only `authenticate` is known. With it, a
    /// request costs one hop off the cooperative pool, not one for the credential, one for
    /// the account's zone and one for the work.
    let identify: (@Sendable (Request) throws -> UUID)?
    /// The account of a request whose credential was checked before and needs nothing
    /// written now, nil for any other (see `Authenticator.knownAccountID`): lets a bounded
    /// read skip the hops to a reader thread and back.
    let identifyKnown: (@Sendable (Request) throws -> UUID?)?
    let clock: @Sendable () -> Date
    /// Each account's list names, for naming tasks' lists without reading every list per request.
    let listNames = ListNames()
    /// Totals of task queries, for `GET /tasks` pages.
    let taskCounts = TaskCounts()
    /// Tasks' subtask counts, for the reads of `GET /tasks` and `GET /tasks/{id}`.
    let subtaskCounts = SubtaskCountCache()
    /// Each account's default zone, and calendars by zone.
    let zones = RequestZones()
    /// Tasks' records by revision, for the reads of `GET /tasks` and `GET /tasks/{id}`.
    let records = TaskRecordCache()
    /// Alerts for the account's open pages, sent on its live event streams.
    let pageAlerts = PageAlerts()

    init(container: BoardStore, authenticate: @escaping @Sendable (Request) async throws -> UUID,
         identify: (@Sendable (Request) throws -> UUID)? = nil, identifyKnown: (@Sendable (Request) throws -> UUID?)? = nil,
         clock: @escaping @Sendable () -> Date) {
        self.container = container
        self.authenticate = authenticate
        self.identify = identify
        self.identifyKnown = identifyKnown
        self.clock = clock
    }

    /// The header in which a client names its IANA time zone: quick entry and due phrases
    /// ("fri 5pm") are read in it, and all-day dates are days of it.
    static let timeZoneHeader = "X-Slate-Time-Zone"

    /// The task board of the request's account, in the client's time zone when it sends
    /// `X-Slate-Time-Zone`, else in the account's default zone, else in the server's.
    func slate(for request: Request) async throws -> Slate {
        if identify != nil {
            return try await BoardThreads.shared.read { try container.boardSnapshot { try self.slateHere(for: request) } }
        }
        let accountID = try await authenticate(request)
        return try await BoardThreads.shared.read { try self.slateHere(for: request, accountID: accountID) }
    }

    /// Runs `body` for the request's account on a reader thread, with the credential check
    /// and the account's zone in the same hop and the same snapshot as the reads of `body`.
    /// `task`: the id of a task `body` reads, if it reads one (its revision is then asked for
    /// with the snapshot's first statement, on a store with round trips).
    ///
    /// `short`: the read is a few indexed rows (one task, or a page of the board without a
    /// search); on SQLite, by a known credential, it then runs here instead (see `readHere`).
    func read<T: Sendable>(_ request: Request, task: UUID? = nil, short: Bool = false,
                           _ body: @escaping @Sendable (Slate) throws -> T) async throws -> T {
        guard identify != nil else { return try await slate(for: request).read(body) }
        if short, let found = try readHere(request, task: task, body) { return found }
        return try await BoardThreads.shared.read {
            try container.boardSnapshot(readingTask: task) { try body(try self.slateHere(for: request)) }
        }
    }

    /// `body` run on this thread, for a short read on SQLite by a credential checked before;
    /// nil (nothing run) for any other. Such a read is a few indexed rows (a task or a page,
    /// subtask counts, the account's lists when they changed) and, on SQLite in WAL mode,
    /// never waits for a writer: it costs less than the two thread hops to a reader and back
    /// (a single GET took 54-67 µs of server CPU with them, 34-42 µs without), and the hops,
    /// not the work, made the slowest list pages (p99 48-50 ms with them, 6-8 ms without, on
    /// one core). A request that might write (a token's hourly last use) or wait (PostgreSQL,
    /// a round trip per statement) still goes to a reader thread, as does a search.
    private func readHere<T: Sendable>(_ request: Request, task: UUID?, _ body: (Slate) throws -> T) throws -> T? {
        guard let identifyKnown, container.readsWithoutWaiting else { return nil }
        return try container.boardSnapshot(readingTask: task) { () -> T? in
            guard let accountID = try identifyKnown(request) else { return nil }
            return try body(try self.slateHere(for: request, accountID: accountID))
        }
    }

    /// Runs the change `body` for the request's account in the next group commit, the
    /// credential checked on the writer thread as part of it. Returns once it is durable.
    /// `task`: the id of a task `body` reads before it writes, if it reads one (it is then
    /// asked for with the change's first statement, on a store with round trips).
    func write<T: Sendable>(_ request: Request, task: UUID? = nil, _ body: @escaping @Sendable (Slate) throws -> T) async throws -> T {
        guard identify != nil else { return try await slate(for: request).write(body) }
        return try await BoardThreads.shared.write(to: container) {
            if let task { container.expectTaskInWrite(task) }
            return try body(try self.slateHere(for: request))
        }
    }

    /// The request's `Slate`, on a database thread (blocking reads allowed).
    private func slateHere(for request: Request, accountID known: UUID? = nil) throws -> Slate {
        let accountID = try known ?? identify!(request)
        let calendar: Calendar
        if let name = request.headers[Self.timeZoneHeader] {
            do {
                calendar = try TimeZones.calendar(named: name, field: Self.timeZoneHeader)
            } catch let error as SlateError {
                throw HTTPError(.badRequest, code: "invalid_header", message: error.description, field: Self.timeZoneHeader)
            }
        } else {
            calendar = try domain { try zones.defaultCalendar(of: accountID, in: container) }
        }
        return Slate(container: container, accountID: accountID, calendar: calendar, clock: clock)
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
        let (key, stamp) = try countKey(query)
        if let stamp, let total = taskCounts.total(of: key, accountID: slate.accountID, stamp: stamp) { return total }
        let total = try domain { try slate.count(query) }
        if let stamp { taskCounts.remember(total, of: key, accountID: slate.accountID, stamp: stamp) }
        return total
    }

    /// What a count of `query` is remembered under (the query without its page) and the
    /// change stamp it holds for; no stamp for views that depend on the time of day.
    private func countKey(_ query: TaskQuery) throws -> (key: TaskQuery, stamp: Int?) {
        var key = query
        key.limit = nil
        key.offset = 0
        let dependsOnTime = key.scope == .today || key.scope == .overdue
        return (key, dependsOnTime ? nil : try domain { try container.boardStamp(tasks: true) })
    }

    /// Before the read of a page of `query`: the account's revision, which the page's answer
    /// carries, is read in the page's round trip (PostgreSQL), and when the total is kept at
    /// the current stamp (so the records and counts that follow are most likely kept too),
    /// the snapshot ends in it (`ModelContainer.expectInSnapshot`).
    func expectPage(of query: TaskQuery, _ slate: Slate) throws {
        guard container.dialect == .postgreSQL else { return }
        let (key, stamp) = try countKey(query)
        let counted = stamp.flatMap { taskCounts.total(of: key, accountID: slate.accountID, stamp: $0) } != nil
        container.expectInSnapshot([.currentRevision(partition: slate.accountID)], thenUsuallyNothingElse: counted)
    }

    /// The subtask counts of the tasks `records` holds, counted again only for a task
    /// whose revision moved since (`SubtaskCountCache`).
    func subtaskCounts(of records: TaskRecords, _ slate: Slate) throws -> [UUID: SubtaskCount] {
        try subtaskCounts.counts(of: records.identities, keep: !container.isInsideGroupCommit) { missing in
            try domain { try slate.subtaskCounts(of: missing) }
        }
    }

    /// The totals of `query` (and how many are active) for `GET /tasks?counts=active`: both
    /// from the remembered totals when the tasks have not changed since, else one grouped
    /// count that is remembered under both (so a later page of either status needs none).
    func totals(_ query: TaskQuery, _ slate: Slate) throws -> TaskTotals {
        let (key, stamp) = try countKey(query)
        // The active tasks of `key` are those of the same query with status active; a query
        // of completed tasks has none (nothing to remember apart from its total).
        var activeKey = key
        activeKey.status = .active
        let completedOnly = key.status == .completed
        if let stamp, let all = taskCounts.total(of: key, accountID: slate.accountID, stamp: stamp) {
            if completedOnly { return TaskTotals(all: all, active: 0) }
            if let active = taskCounts.total(of: activeKey, accountID: slate.accountID, stamp: stamp) {
                return TaskTotals(all: all, active: active)
            }
        }
        let totals = try domain { try slate.totals(query) }
        if let stamp {
            taskCounts.remember(totals.all, of: key, accountID: slate.accountID, stamp: stamp)
            if !completedOnly { taskCounts.remember(totals.active, of: activeKey, accountID: slate.accountID, stamp: stamp) }
        }
        return totals
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
        guard let text = request.parameters[name], let id = UUID(idText: text) else {
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

/// Calendars for requests: each account's default zone, read again only after a commit
/// touched accounts (a zone a client names is `TimeZones.calendar(named:)`, made once per name).
final class RequestZones: Sendable {
    private let defaults = Mutex<[UUID: (stamp: Int, calendar: Calendar)]>([:])

    /// The calendar of the account's default zone (the server's when it has none).
    func defaultCalendar(of accountID: UUID, in container: BoardStore) throws -> Calendar {
        let directory = AccountDirectory(container: container)
        let stamp = try directory.credentialsStamp()
        if let stamp, let entry = defaults.withLock({ $0[accountID] }), entry.stamp == stamp { return entry.calendar }
        let calendar = TimeZones.calendar(in: try directory.timeZone(of: accountID))
        if let stamp {
            defaults.withLock { defaults in
                if defaults.count >= 4096 { defaults.removeAll(keepingCapacity: true) }
                defaults[accountID] = (stamp, calendar)
            }
        }
        return calendar
    }
}

import Foundation
import SlateCore
import SlateHTTP

/// CalDAV (tasks, VTODO) over Slate: `/.well-known/caldav`, a principal and a calendar
/// home per account under `/dav/`, the Inbox and every list as a task collection, one
/// resource per task. Served by `slate serve` beside the REST API.
///
/// ```swift
/// let dav = CalDAVService(directory: AccountDirectory(container: container),
///                         authenticate: { try await basic.accountID(for: $0) },
///                         identify: { try basic.rememberedAccountID(for: $0) })
/// let server = HTTPServer(configuration: configuration, responder: DAVMount(dav: dav.router, other: api.router))
/// ```
public struct CalDAVService: Sendable {
    /// The routes: `/.well-known/caldav`, `/dav` and everything under it.
    public let router: Router

    /// The methods served under `/dav/`.
    static let methods: [HTTPMethod] = [.options, .get, .put, .delete, "PROPFIND", "PROPPATCH", "REPORT", "MKCALENDAR", "MKCOL", .post]

    /// - Parameters:
    ///   - directory: the accounts (and the store behind them).
    ///   - authenticate: names the account of a request (HTTP Basic with a password or an
    ///     app password) or throws an `HTTPError` 401 or 429.
    ///   - identify: names the account of a request whose credentials `authenticate` checked
    ///     before and that still hold, or nil; called inside the request's snapshot, on a
    ///     database thread (so that such a request makes one hop off Swift's cooperative
    ///     pool, not two) or, for a short read on SQLite, on the request's own thread: it
    ///     must not block.
    ///   - calendar: the calendar and time zone of floating times and alerts at a time of day,
    ///     for an account without a zone of its own (`Account.timeZone`).
    ///   - logLevel: which requests get an access-log line on standard error.
    ///   - log: the service's log (its format and level) instead of a text log at `logLevel`.
    ///   - metrics: counts CalDAV requests beside the API's (`slate serve --metrics`).
    ///   - syncHistory: how many of an account's changes a sync token may be behind before
    ///     it is refused with 403 `valid-sync-token` (see `CalendarLimits.syncHistory`).
    public init(directory: AccountDirectory, authenticate: @escaping @Sendable (Request) async throws -> UUID,
                identify: (@Sendable (Request) throws -> UUID?)? = nil, calendar: Calendar = .current, logLevel: AccessLog.Level = .errors,
                log: ServiceLog? = nil, metrics: MetricsRegistry? = nil, syncHistory: Int = CalendarLimits.syncHistory) {
        let handler = DAVHandler(directory: directory, authenticate: authenticate, identify: identify, calendar: calendar, syncHistory: syncHistory)
        var router = Router()
        for method in Self.methods {
            router.on(method, "/dav", handler.respond)
            router.on(method, "/dav/*path", handler.respond)
            router.on(method, "/.well-known/caldav", DAVHandler.wellKnown)
        }
        router.on("PROPFIND", "/.well-known/caldav", DAVHandler.wellKnown)
        router.use(log.map { AccessLog(log: $0) } ?? AccessLog(level: logLevel))
        if let metrics { router.use(RequestMetrics(registry: metrics, routes: router.routeTable.map(\.pattern))) }
        router.use(SecurityHeaders())
        self.router = router
    }
}

/// Sends `/dav/…` and `/.well-known/caldav` to the CalDAV router and everything else to
/// another responder (the REST API and the web app).
public struct DAVMount: Responder {
    let dav: Router
    let other: any Responder

    public init(dav: Router, other: any Responder) {
        self.dav = dav
        self.other = other
    }

    public func respond(to request: Request) async throws -> Response {
        let path = request.path
        if path == "/dav" || path.hasPrefix("/dav/") || path == "/.well-known/caldav" || path == "/.well-known/caldav/" {
            return try await dav.respond(to: request)
        }
        return try await other.respond(to: request)
    }
}

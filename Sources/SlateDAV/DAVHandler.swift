import Foundation
import SlateCore
import SlateHTTP

/// Signs a request in, works out what it addresses, and hands it to the method's handler.
struct DAVHandler: Sendable {
    let directory: AccountDirectory
    let authenticate: @Sendable (Request) async throws -> UUID
    /// The account of a request whose credentials were checked before (nil: check them
    /// with `authenticate`), called inside the request's snapshot: on a database thread, or
    /// on the request's own thread for a short read, so it must not block.
    let identify: (@Sendable (Request) throws -> UUID?)?
    /// The calendar of an account without a zone of its own (the server's).
    let calendar: Calendar
    let syncHistory: Int
    /// This server's ready-to-send object responses.
    let responses = CalendarResponseCache()
    /// Collections' names and ETags as last listed, for the multigets that follow.
    let tagListings = CollectionTagCache()

    /// The `DAV` header: WebDAV classes 1 and 3, CalDAV, Extended MKCOL.
    static let capabilities = "1, 3, calendar-access, extended-mkcol"
    static let allow = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL"

    /// `/.well-known/caldav` (RFC 6764) points at the DAV root.
    @Sendable static func wellKnown(_ request: Request) async throws -> Response {
        Response(status: .movedPermanently, headers: ["Location": DAVPaths.root, "Content-Length": "0"])
    }

    @Sendable func respond(_ request: Request) async throws -> Response {
        do {
            return try await respondSignedIn(request)
        } catch let error where SlateError.transient(error) != nil {
            // The database is locked or cannot be reached (signing in reads it too): 503.
            let transient = SlateError.transient(error)!
            var response = DAVContext.failure(.serviceUnavailable, nil, transient == .busy ? transient.description : SlateError.unavailableMessage)
            response.headers["Retry-After"] = transient == .busy ? "1" : "2"
            return response
        }
    }

    private func respondSignedIn(_ request: Request) async throws -> Response {
        if request.method == .options {
            return Response(status: .ok, headers: ["DAV": Self.capabilities, "Allow": Self.allow, "Content-Length": "0"])
        }
        let method = request.method.rawValue
        // A small multiget's or sync's body is read first: what it asks decides where it
        // runs. Any other body is read by its handler, once the request is signed in.
        let body = Self.mayBeShortReport(request) ? Result { try DAVContext.xmlBody(of: request) } : nil
        // A PUT's iCalendar is read here, on the request's thread, not on the one writer
        // thread that stores it (bounded by the server's body limit, as the multiget above).
        let upload = DAVContext.isCalendarUpload(request) ? CalendarUpload(request.body, calendar: calendar) : nil
        let work = { @Sendable (accountID: UUID?) throws -> Response in
            try self.serve(request, accountID: accountID, body: body, upload: upload)
        }
        do {
            var recognised = true
            if let identify, Self.isShortRead(request, body: body, on: directory.container) {
                let response = try directory.container.boardSnapshot { try identify(request).map { try work($0) } }
                if let response { return response }
                recognised = false
            }
            // One hop to a database thread: a credential checked before is recognised there,
            // in the same snapshot (or group commit) as the work.
            if let identify, recognised {
                if let response = try await hop(method, { try identify(request).map { try work($0) } }) { return response }
            }
            let accountID: UUID
            do {
                accountID = try await authenticate(request)
            } catch let error as HTTPError where error.status.code == 401 {
                return Self.unauthorized(error.message)
            }
            return try await hop(method) { try work(accountID) }
        } catch {
            return try Self.response(for: error)
        }
    }

    /// Methods that change something: run on the writer thread, in the next group commit.
    static let changing: Set<String> = ["PUT", "DELETE", "PROPPATCH", "MKCALENDAR", "MKCOL"]

    /// Runs `body` on a reader thread in one snapshot, or, for a change, on the writer
    /// thread inside the next group commit (rolled back alone when it throws). Never on
    /// Swift's cooperative pool: a change waiting for the write lock then stalls only other
    /// changes, never reads or live streams.
    private func hop<T: Sendable>(_ method: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let container = directory.container
        if Self.changing.contains(method) { return try await BoardThreads.shared.write(to: container, body) }
        return try await BoardThreads.shared.read { try container.boardSnapshot(body) }
    }

    /// The most objects a multiget may name and still be read on the request's thread.
    static let shortMultiget = 200

    /// True for a read short enough to run on the request's own thread, in one snapshot,
    /// instead of hopping to a reader thread and back: on SQLite (in WAL mode a read never
    /// waits for a writer; on PostgreSQL each statement is a round trip), a GET or HEAD of
    /// one object, a PROPFIND of one resource (Depth 0), a multiget of at most
    /// `shortMultiget` objects asking only for stored properties (no CALDAV:expand or
    /// partial retrieval, which compute), or a sync-collection from a token (what changed
    /// since the client's last sync: an index range from the token on, usually a few rows;
    /// a client's sync from scratch is a listing). Such a read costs less than the hops
    /// (as `GET /tasks/{id}` in the API): an incremental sync of one change spent a fifth of
    /// its server CPU switching threads. Listings, queries, syncs from scratch and every
    /// change still go to the board's threads. The one unbounded case: a token older than
    /// every change of the collection costs what a sync from scratch does (about 5 ms at
    /// 10,000 objects), here on the request's thread.
    static func isShortRead(_ request: Request, body: Result<XMLElement?, any Error>?, on container: BoardStore) -> Bool {
        guard container.readsWithoutWaiting else { return false }
        switch request.method.rawValue {
        case "GET", "HEAD":
            return true
        case "PROPFIND":
            return request.headers["Depth"]?.trimmingHTTPWhitespace == "0"
        case "REPORT":
            guard case .success(let element?) = body else { return false }
            if element.is(Namespace.dav, "sync-collection") {
                return element.child(Namespace.dav, "sync-token")?.text.trimmedWhitespace.isEmpty == false
            }
            guard element.is(Namespace.caldav, "calendar-multiget"), element.children.count <= shortMultiget + 1 else { return false }
            let asked = element.child(Namespace.dav, "prop")?.children ?? []
            return asked.allSatisfy { $0.children.isEmpty }
        default:
            return false
        }
    }

    /// The largest REPORT body read before its handler (a multiget of `shortMultiget` long
    /// hrefs is about 30 KB).
    static let shortReportBytes = 64 << 10

    /// True when `request` may be a short multiget or sync: a REPORT body of at most
    /// `shortReportBytes` that names the report early. Only such a body is parsed before
    /// the request is signed in, and then only once.
    static func mayBeShortReport(_ request: Request) -> Bool {
        guard request.method.rawValue == "REPORT", request.body.count <= shortReportBytes else { return false }
        let opening = request.body.prefix(512)
        return shortReports.contains { opening.range(of: $0) != nil }
    }

    /// The names of the reports that may be short reads (`isShortRead`), as their bodies spell them.
    private static let shortReports = [Data("calendar-multiget".utf8), Data("sync-collection".utf8)]

    /// The request for `accountID`, on a database thread (blocking reads and writes
    /// allowed); `body`, the request's body as XML when it was read already. Throws what
    /// the method refused; `response(for:)` answers it.
    private func serve(_ request: Request, accountID: UUID?, body: Result<XMLElement?, any Error>? = nil,
                       upload: CalendarUpload? = nil) throws -> Response {
        guard let accountID, let account = try directory.account(id: accountID) else {
            return Self.unauthorized("The account no longer exists.")
        }
        // The account's own zone when it has one (as its alerts are sent in): a floating time,
        // an alert at 9:00 on the day and the day of a VALUE=DATE are read and written there.
        let calendar = account.timeZone.flatMap { try? TimeZones.calendar(named: $0) } ?? self.calendar
        let upload = upload.map { calendar.timeZone == self.calendar.timeZone ? $0 : CalendarUpload($0.data, calendar: calendar) }
        let slate = Slate(container: directory.container, accountID: accountID, calendar: calendar)
        let context = DAVContext(slate: slate, paths: DAVPaths(account: account.name), request: request, syncHistory: syncHistory,
                                 responses: responses, tagListings: tagListings, readBody: body, upload: upload)
        guard let target = DAVTarget.parse(request.path, account: account.name) else {
            return DAVContext.failure(.notFound, nil, "Nothing is at \(request.path).")
        }
        switch request.method.rawValue {
        case "PROPFIND": return try context.propfind(target)
        case "PROPPATCH": return try context.proppatch(target)
        case "REPORT": return try context.report(target)
        case "GET", "HEAD": return try context.get(target)
        case "PUT": return try context.put(target)
        case "DELETE": return try context.delete(target)
        case "MKCALENDAR", "MKCOL": return try context.makeCollection(target)
        default:
            return DAVContext.failure(.methodNotAllowed, nil, "\(request.method) is not allowed here; use \(Self.allow).", headers: ["Allow": Self.allow])
        }
    }

    /// The answer to what a method threw (after its writes were rolled back).
    static func response(for error: any Error) throws -> Response {
        switch error {
        case let error as CalendarObjectError:
            return DAVContext.response(for: error)
        case let error as XMLReadError:
            return DAVContext.failure(.badRequest, nil, "The XML body was refused: \(error.description)")
        case let error as SlateError:
            switch error {
            case .notFound: return DAVContext.failure(.notFound, nil, error.description)
            case .conflict: return DAVContext.failure(.preconditionFailed, nil, error.description)
            case .invalid, .duplicateListName, .ambiguous: return DAVContext.failure(.forbidden, nil, error.description)
            case .cannotUndo: return DAVContext.failure(.conflict, nil, error.description)
            case .busy:
                var response = DAVContext.failure(.serviceUnavailable, nil, error.description)
                response.headers["Retry-After"] = "1"
                return response
            case .unavailable:
                var response = DAVContext.failure(.serviceUnavailable, nil, SlateError.unavailableMessage)
                response.headers["Retry-After"] = "2"
                return response
            case .store: throw error
            }
        default:
            throw error
        }
    }

    /// 401 asking for HTTP Basic (an account password or an app password).
    static func unauthorized(_ message: String) -> Response {
        var response = DAVContext.failure(.unauthorized, nil, message)
        response.headers["WWW-Authenticate"] = "Basic realm=\"Slate\", charset=\"UTF-8\""
        return response
    }
}

/// One signed-in request: the account's Slate, its addresses and the request.
struct DAVContext {
    let slate: Slate
    let paths: DAVPaths
    let request: Request
    /// See `CalendarLimits.syncHistory`.
    var syncHistory = CalendarLimits.syncHistory
    /// Object responses kept across requests (nil: every answer written afresh).
    var responses: CalendarResponseCache?
    /// Collections' listings kept across requests (nil: a multiget reads its objects' ETags).
    var tagListings: CollectionTagCache?
    /// The body as XML, when it was read before the request reached its handler.
    var readBody: Result<XMLElement?, any Error>?
    /// A PUT's body as iCalendar, when it was read before the request reached its handler.
    var upload: CalendarUpload?

    /// A 207 answer.
    static func multiStatus(_ body: Data) -> Response {
        Response(status: .multiStatus, headers: ["Content-Type": "application/xml; charset=utf-8"], body: .data(body))
    }

    /// An error with a `<d:error>` body naming the precondition (if any) and what was wrong.
    static func failure(_ status: HTTPStatus, _ condition: PropertyName?, _ message: String, headers: HTTPHeaders = [:]) -> Response {
        let body = DAVXML.error(condition, message)
        var response = Response(status: status, headers: ["Content-Type": "application/xml; charset=utf-8"], body: .data(Data(body.utf8)))
        for (name, value) in headers { response.headers[name] = value }
        return response
    }

    static func response(for error: CalendarObjectError) -> Response {
        let caldav = { (name: String) in PropertyName(Namespace.caldav, name) }
        switch error {
        case .invalidData: return failure(.badRequest, caldav("valid-calendar-data"), error.description)
        case .invalidFilter: return failure(.forbidden, caldav("valid-filter"), error.description)
        case .unsupportedComponent: return failure(.forbidden, caldav("supported-calendar-component"), error.description)
        case .uidConflict: return failure(.forbidden, caldav("no-uid-conflict"), error.description)
        case .preconditionFailed: return failure(.preconditionFailed, nil, error.description)
        case .notFound: return failure(.notFound, nil, error.description)
        case .tooLarge: return failure(.contentTooLarge, caldav("max-resource-size"), error.description)
        case .forbidden: return failure(.forbidden, nil, error.description)
        case .invalidSyncToken: return failure(.forbidden, PropertyName(Namespace.dav, "valid-sync-token"), error.description)
        }
    }

    /// The collection a segment names, or a 404 error.
    func collection(_ name: String) throws -> CalendarCollectionInfo {
        guard let found = try collectionInfo(named: name) else { throw CalendarObjectError.notFound("collection \(name)") }
        return found
    }

    /// The collection a segment names, or nil (`Slate.calendarCollection(named:)`); outside
    /// a write, as last looked up while no list or collection name has changed since
    /// (`Slate.calendarCollectionsStamp`, `CollectionTagCache`).
    func collectionInfo(named name: String) throws -> CalendarCollectionInfo? {
        guard !slate.container.isInsideGroupCommit, let tagListings, let stamp = try slate.calendarCollectionsStamp() else {
            return try slate.calendarCollection(named: name)
        }
        if let kept = tagListings.collection(named: name, account: slate.accountID, at: stamp) { return kept }
        let found = try slate.calendarCollection(named: name)
        tagListings.remember(found, named: name, account: slate.accountID, at: stamp)
        return found
    }

    /// The request body parsed as XML; nil when it is empty.
    func xmlBody() throws -> XMLElement? {
        if let readBody { return try readBody.get() }
        return try Self.xmlBody(of: request)
    }

    /// `request`'s body parsed as XML; nil when it is empty.
    static func xmlBody(of request: Request) throws -> XMLElement? {
        guard !request.body.isEmpty, !request.body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
        return try XMLReader.parse(request.body)
    }

    /// The revision an entity tag names (`"12"`, `W/"12"`), or nil for one Slate never gave.
    static func revision(ofETag tag: String) -> Int? {
        var text = tag.trimmingHTTPWhitespace
        if text.hasPrefix("W/") { text.removeFirst(2) }
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return Int(text) }
        return Int(text.dropFirst().dropLast())
    }
}

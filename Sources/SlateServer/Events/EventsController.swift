import Foundation
import SlateCore
import SlateHTTP
import SlateStore
import Synchronization

/// `GET /api/v1/events`: Server-Sent Events, one `change` event per commit that touched
/// the caller's account, with the new revision as the event id. A client that reconnects
/// with `Last-Event-ID` first gets a `sync` event naming the revision to fetch changes from.
///
/// An account has at most ``streamsPerAccount`` streams open (429 past that), counted by
/// account, not by address, so tabs behind one proxy do not crowd each other out. A stream
/// ends when the credential that opened it stops working (sign-out, password change,
/// revoked token: every commit that touches credentials or accounts re-authenticates its
/// request; an expired session or token: checked every ``credentialCheckInterval``).
struct EventsController {
    let context: APIContext
    /// Every stream of the same commit sends the same event: it is encoded once per API.
    let recentEvents = EventCache()
    let streams: StreamQuota

    /// How often an open stream checks that its credential still works (it may expire).
    static let credentialCheckInterval = Duration.seconds(30)

    /// The default cap on one account's open event streams (tabs, phones, scripts).
    static let streamsPerAccount = 16

    init(context: APIContext, streamsPerAccount: Int = EventsController.streamsPerAccount) {
        self.context = context
        streams = StreamQuota(limit: streamsPerAccount)
    }

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/events", events)
    }

    @Sendable func events(_ request: Request) async throws -> Response {
        let slate = try await context.slate(for: request)
        let accountID = slate.accountID
        let streams = self.streams
        let authenticate = context.authenticate
        let commits = context.container.commits()
        let current = try domain { try slate.revision() }
        guard streams.open(accountID) else {
            throw HTTPError(.tooManyRequests, code: "too_many_streams",
                            message: "This account has \(streams.limit) live event streams open already; close one (a tab or an app) first.",
                            headers: ["Retry-After": "5"])
        }
        let resumeFrom = request.headers["Last-Event-ID"].flatMap { Int($0) }
        let recentEvents = self.recentEvents
        let stream = AsyncStream<ServerSentEvent> { continuation in
            let relay = Task {
                continuation.yield(ServerSentEvent(id: String(current), event: "hello", data: Self.json(["revision": current]), retry: 2000))
                if let resumeFrom, resumeFrom < current {
                    continuation.yield(ServerSentEvent(id: String(current), event: "sync",
                                                       data: Self.json(["since": resumeFrom, "revision": current])))
                }
                for await commit in commits where commit.revision > current {
                    if commit.affects(Credential.self) || commit.affects(Account.self),
                       (try? await authenticate(request)) != accountID { break }
                    guard slate.isAffected(by: commit) else { continue }
                    continuation.yield(recentEvents.event(for: commit))
                }
                continuation.finish()
            }
            // A session or token that expires makes no commit: check it now and then too.
            let expiry = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.credentialCheckInterval)
                    if !Task.isCancelled, (try? await authenticate(request)) != accountID { continuation.finish() }
                }
            }
            continuation.onTermination = { _ in
                relay.cancel()
                expiry.cancel()
                streams.close(accountID)
            }
        }
        return Response.eventStream(stream)
    }

    /// The event for a commit. Ids are listed only when every row it touched is this
    /// account's (one partition), so no other account's ids are ever sent.
    static func event(for commit: Commit) -> ServerSentEvent {
        var data: [String: Any] = ["revision": commit.revision, "origin": commit.origin.rawValue]
        if commit.partitions.count == 1 {
            for (table, name) in [("tasks", "tasks"), ("lists", "lists")] {
                guard let changes = commit.tables[table] else { continue }
                data[name] = [
                    "inserted": changes.inserted.map { $0.uuidString.lowercased() }.sorted(),
                    "updated": changes.updated.map { $0.uuidString.lowercased() }.sorted(),
                    "deleted": changes.deleted.map { $0.uuidString.lowercased() }.sorted(),
                ]
            }
        }
        return ServerSentEvent(id: String(commit.revision), event: "change", data: json(data))
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: JSONSerialization.body(object), as: UTF8.self)
    }
}

/// Open event streams per account.
final class StreamQuota: Sendable {
    let limit: Int
    private let open = Mutex<[UUID: Int]>([:])

    init(limit: Int) { self.limit = limit }

    /// Counts a new stream; false when the account is at its limit.
    func open(_ account: UUID) -> Bool {
        open.withLock { open in
            guard open[account, default: 0] < limit else { return false }
            open[account, default: 0] += 1
            return true
        }
    }

    func close(_ account: UUID) {
        open.withLock { open in
            let left = open[account, default: 1] - 1
            open[account] = left > 0 ? left : nil
        }
    }

    /// Streams open for `account` now.
    func count(_ account: UUID) -> Int { open.withLock { $0[account] ?? 0 } }
}

/// The last few commits' events, so a commit fanned out to many streams is encoded once.
final class EventCache: Sendable {
    private let events = Mutex<[Int: ServerSentEvent]>([:])

    func event(for commit: Commit) -> ServerSentEvent {
        if let cached = events.withLock({ $0[commit.revision] }) { return cached }
        let event = EventsController.event(for: commit)
        events.withLock { cache in
            cache[commit.revision] = event
            if cache.count > 64, let oldest = cache.keys.min() { cache.removeValue(forKey: oldest) }
        }
        return event
    }
}

import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// `GET /api/v1/events`: Server-Sent Events, one `change` event per commit that touched
/// the caller's account, with the account's new revision as the event id (other
/// accounts' changes never show in it). A client that reconnects
/// with `Last-Event-ID` first gets a `sync` event naming the revision to fetch changes from.
///
/// An account has at most ``streamsPerAccount`` streams open (429 past that), counted by
/// account, not by address, so tabs behind one proxy do not crowd each other out. A stream
/// ends when the credential that opened it stops working (sign-out, password change,
/// revoked token: every commit that touches credentials or accounts re-authenticates its
/// request; an expired session or token: checked every ``credentialCheckInterval``).
struct EventsController {
    let context: APIContext
    /// Every open stream of this API, fed from one subscription to the board's changes.
    let hub: EventHub
    let streams: StreamQuota

    /// How often an open stream checks that its credential still works (it may expire).
    static let credentialCheckInterval = Duration.seconds(30)

    /// The default cap on one account's open event streams (tabs, phones, scripts).
    static let streamsPerAccount = 16

    init(context: APIContext, streamsPerAccount: Int = EventsController.streamsPerAccount) {
        self.context = context
        hub = EventHub(container: context.container)
        streams = StreamQuota(limit: streamsPerAccount)
    }

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/events", events)
    }

    @Sendable func events(_ request: Request) async throws -> Response {
        let slate = try await context.slate(for: request)
        let accountID = slate.accountID
        let streams = self.streams
        guard streams.open(accountID) else {
            throw HTTPError(.tooManyRequests, code: "too_many_streams",
                            message: "This account has \(streams.limit) live event streams open already; close one (a tab or an app) first.",
                            headers: ["Retry-After": "5"])
        }
        let authenticate = context.authenticate
        let output = StreamChannel()
        let listener = EventListener(accountID: accountID, output: output) { (try? await authenticate(request)) == accountID }
        let hub = self.hub
        // Listening before the revision is read: a change committed in between is held
        // by the listener and sent after the hello, not lost.
        hub.add(listener)
        let current: Int
        do {
            current = try await slate.read { slate in try domain { try slate.revision() } }
        } catch {
            hub.remove(listener)
            streams.close(accountID)
            throw error
        }
        // hello (and sync) first, whatever comes next.
        var frames = ServerSentEvent(id: String(current), event: "hello", data: Self.json(["revision": current]), retry: 2000).encoded
        if let resumeFrom = request.headers["Last-Event-ID"].flatMap({ Int($0) }), resumeFrom < current {
            frames += ServerSentEvent(id: String(current), event: "sync", data: Self.json(["since": resumeFrom, "revision": current])).encoded
        }
        listener.open(at: current, with: frames)
        // Alerts for this account's open pages go out on the same stream.
        let alerts = context.pageAlerts.subscribe(accountID)
        let alertRelay = Task { for await alert in alerts { listener.send(alert.encoded) } }
        // A session or token that expires makes no commit: check it now and then too.
        let expiry = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.credentialCheckInterval)
                if !Task.isCancelled, (try? await authenticate(request)) != accountID { listener.finish() }
            }
        }
        output.onTermination {
            hub.remove(listener)
            alertRelay.cancel()
            expiry.cancel()
            streams.close(accountID)
        }
        return Response(status: .ok, headers: Response.eventStreamHeaders, body: .channel(output))
    }

    /// The `resync` event: this stream fell too far behind and must read everything again,
    /// as of the account's `revision`.
    static func resyncEvent(revision: Int) -> ServerSentEvent {
        ServerSentEvent(id: String(revision), event: "resync", data: json(["revision": revision]))
    }

    /// The `change` event for a change, naming the tasks and lists it touched by kind and
    /// id, under `revision`, the account's revision after it. Ids are listed only when
    /// every row it touched is one account's, so no other account's ids are ever sent.
    static func event(for change: BoardChange, revision: Int) -> ServerSentEvent {
        var data: [String: Any] = ["revision": revision, "origin": change.origin?.rawValue ?? "save"]
        if change.isOfOneAccount {
            for (name, records) in [("tasks", change.tasks), ("lists", change.lists)] {
                guard let records else { continue }
                data[name] = [
                    "inserted": records.inserted.map { $0.uuidString.lowercased() },
                    "updated": records.updated.map { $0.uuidString.lowercased() },
                    "deleted": records.deleted.map { $0.uuidString.lowercased() },
                ]
            }
        }
        return ServerSentEvent(id: String(revision), event: "change", data: json(data))
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

/// The last few changes' events, so a change fanned out to many streams is encoded once.
/// Keyed by the change's identity (an external summary and a change of ours are different
/// events) and the account's revision in it (each account counts its own).
final class EventCache: Sendable {
    private let events = Mutex<[String: (sequence: Int, event: ServerSentEvent)]>([:])

    func event(for change: BoardChange, revision: Int) -> ServerSentEvent {
        let key = change.identity + "@" + String(revision)
        if let cached = events.withLock({ $0[key] }) { return cached.event }
        let event = EventsController.event(for: change, revision: revision)
        events.withLock { cache in
            cache[key] = (change.sequence, event)
            if cache.count > 64, let oldest = cache.min(by: { $0.value.sequence < $1.value.sequence })?.key {
                cache.removeValue(forKey: oldest)
            }
        }
        return event
    }
}

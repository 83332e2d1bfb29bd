import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// `GET /api/v1/events`: Server-Sent Events, one `change` event per commit that touched
/// the caller's account, with the new revision as the event id. A client that reconnects
/// with `Last-Event-ID` first gets a `sync` event naming the revision to fetch changes from.
struct EventsController {
    let context: APIContext
    /// Every stream of the same commit sends the same event: it is encoded once per API.
    let recentEvents = EventCache()

    func addRoutes(to router: inout Router) {
        router.on(.get, "/api/v1/events", events)
    }

    @Sendable func events(_ request: Request) async throws -> Response {
        let slate = try await context.slate(for: request)
        let changes = context.container.boardChanges()
        let current = try await slate.read { slate in try domain { try slate.revision() } }
        let resumeFrom = request.headers["Last-Event-ID"].flatMap { Int($0) }
        let recentEvents = self.recentEvents
        let accountID = slate.accountID
        let alerts = context.pageAlerts.subscribe(accountID)
        let stream = AsyncStream<ServerSentEvent> { continuation in
            // Alerts for this account's open pages go out on the same stream.
            let alertRelay = Task { for await alert in alerts { continuation.yield(alert) } }
            let relay = Task {
                continuation.yield(ServerSentEvent(id: String(current), event: "hello", data: Self.json(["revision": current]), retry: 2000))
                if let resumeFrom, resumeFrom < current {
                    continuation.yield(ServerSentEvent(id: String(current), event: "sync",
                                                       data: Self.json(["since": resumeFrom, "revision": current])))
                }
                for await change in changes where change.revision > current && change.concerns(account: accountID) {
                    continuation.yield(recentEvents.event(for: change))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                relay.cancel()
                alertRelay.cancel()
            }
        }
        return Response.eventStream(stream)
    }

    /// The event for a change: `change` naming the tasks and lists it touched by kind and
    /// id, or `resync` when this stream fell too far behind and must read everything again.
    /// Ids are listed only when every row it touched is one account's, so no other
    /// account's ids are ever sent.
    static func event(for change: BoardChange) -> ServerSentEvent {
        if change.isResync {
            return ServerSentEvent(id: String(change.revision), event: "resync", data: json(["revision": change.revision]))
        }
        var data: [String: Any] = ["revision": change.revision, "origin": change.origin?.rawValue ?? "save"]
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
        return ServerSentEvent(id: String(change.revision), event: "change", data: json(data))
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: JSONSerialization.body(object), as: UTF8.self)
    }
}

/// The last few changes' events, so a change fanned out to many streams is encoded once.
/// Keyed by the change's identity, not its revision alone: an external summary and a
/// change of ours are different events.
final class EventCache: Sendable {
    private let events = Mutex<[String: (revision: Int, event: ServerSentEvent)]>([:])

    func event(for change: BoardChange) -> ServerSentEvent {
        let key = change.identity
        if let cached = events.withLock({ $0[key] }) { return cached.event }
        let event = EventsController.event(for: change)
        events.withLock { cache in
            cache[key] = (change.revision, event)
            if cache.count > 64, let oldest = cache.min(by: { $0.value.revision < $1.value.revision })?.key {
                cache.removeValue(forKey: oldest)
            }
        }
        return event
    }
}

import Foundation
import SlateCore
import SlateHTTP
import SlateStore
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
        let commits = context.container.commits()
        let current = try await slate.read { slate in try domain { try slate.revision() } }
        let resumeFrom = request.headers["Last-Event-ID"].flatMap { Int($0) }
        let recentEvents = self.recentEvents
        let stream = AsyncStream<ServerSentEvent> { continuation in
            let relay = Task {
                continuation.yield(ServerSentEvent(id: String(current), event: "hello", data: Self.json(["revision": current]), retry: 2000))
                if let resumeFrom, resumeFrom < current {
                    continuation.yield(ServerSentEvent(id: String(current), event: "sync",
                                                       data: Self.json(["since": resumeFrom, "revision": current])))
                }
                for await commit in commits where commit.revision > current && slate.isAffected(by: commit) {
                    continuation.yield(recentEvents.event(for: commit))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
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

import Foundation
import SlateStore

/// What changed in a collection since a sync token (RFC 6578).
public struct CalendarChanges: Sendable {
    /// Objects of the collection created or changed since the token, oldest change first.
    public let changed: [CalendarObject]
    /// Names of resources gone from the collection since the token (deleted, or moved to
    /// another list). A name the client never saw may appear; clients ignore those.
    public let removed: [String]
    /// The token to send next time.
    public let token: Int
    /// True when `limit` cut the answer short: `token` then resumes after the last change sent.
    public let isTruncated: Bool
}

extension Slate {
    /// The changes of `collection` after `token` (nil: everything, for a first sync), at
    /// most `limit` objects. Reads the account's change feed, so the cost follows the
    /// number of changes, not the size of the collection.
    public func calendarChanges(in collection: CalendarCollectionID, since token: Int?, limit: Int? = nil,
                                history: Int = CalendarLimits.syncHistory) throws -> CalendarChanges {
        let current = try revision()
        guard let token else {
            let objects = try calendarObjects(in: collection).sorted { $0.revision < $1.revision }
            return page(objects, removed: [], current: current, floor: 0, limit: limit)
        }
        guard token >= 0, token <= current else {
            throw CalendarObjectError.invalidSyncToken("The sync token \(token) was not handed out by this server; sync again from scratch.")
        }
        guard current - token <= history else {
            throw CalendarObjectError.invalidSyncToken(
                "The sync token \(token) is older than the last \(history) changes this server keeps for sync; sync again from scratch.")
        }
        let feed = try changes(since: token)
        let context = makeContext()
        let accountID = self.accountID
        // Where each task that left a list since the token was at the token: its first departure.
        var left: [UUID: UUID?] = [:]
        for departure in try context.departures(of: TaskItem.self, since: token, partition: accountID) where left[departure.id] == nil {
            left[departure.id] = .some(departure.group)
        }
        func wasHere(_ id: UUID) -> Bool { left[id].map { $0 == collection.listID } ?? false }
        var changed: [CalendarObject] = []
        var removed: [String] = []
        var rows: [UUID: CalendarResource] = [:]
        func row(_ id: UUID) throws -> CalendarResource? {
            if let known = rows[id] { return known }
            let found = try context.model(CalendarResource.self, id: id)
            rows[id] = found
            return found
        }
        var series: Set<UUID> = []
        for task in feed.tasks {
            if let occurrence = try context.model(CalendarOccurrence.self, id: task.id),
               try context.model(TaskItem.self, id: occurrence.seriesID) != nil {
                // Served in its series' bytes: the series changed.
                series.insert(occurrence.seriesID)
                continue
            }
            guard task.listID == collection.listID else {
                // Gone from here only if it was here at the token; changes in other lists are theirs.
                if wasHere(task.id) { removed.append(try row(task.id)?.name ?? Self.defaultName(task.id)) }
                continue
            }
            series.insert(task.id)
        }
        for id in series {
            guard let read = try context.revisioned(TaskItem.self, id: id), read.model.accountID == accountID,
                  read.model.listID == collection.listID else { continue }
            let revision = try seriesRevision(read.revision, try occurrences(ofSeries: id, in: context), in: context)
            changed.append(CalendarObject(name: try row(id)?.name ?? Self.defaultName(id), task: read.model,
                                          revision: revision, stored: try row(id)))
        }
        for id in feed.deletedTaskIDs where wasHere(id) || left[id] == nil {
            // A deletion without a departure was made before departures were recorded: reported everywhere.
            removed.append(try row(id)?.name ?? Self.defaultName(id))
        }
        changed.sort { $0.revision < $1.revision }
        return page(changed, removed: removed, current: max(current, feed.revision), floor: token, limit: limit)
    }

    /// Forgets the names of resources whose tasks were deleted more than `history` changes
    /// ago (a sync token that old is refused, so no client can ask for them any more).
    /// Runs inside a CalDAV write, in its context; at most once per 100 revisions.
    func pruneRemovedNames(in context: ModelContext, history: Int = CalendarLimits.syncHistory) throws {
        let horizon = try revision() - history
        let accountID = self.accountID
        let mark = try context.model(CalendarSyncMark.self, id: accountID)?.prunedThrough ?? 0
        guard horizon - mark >= 100 else { return }
        for departure in try context.departures(of: TaskItem.self, since: mark, through: horizon, partition: accountID) {
            guard try context.model(TaskItem.self, id: departure.id) == nil,
                  try context.model(CalendarResource.self, id: departure.id) != nil else { continue }
            context.delete(CalendarResource.self, id: departure.id)
            if try context.model(CalendarResourceBody.self, id: departure.id) != nil { context.delete(CalendarResourceBody.self, id: departure.id) }
        }
        context.upsert(CalendarSyncMark(id: accountID, accountID: accountID, prunedThrough: horizon))
    }

    /// At most `limit` objects, cut between two revisions so that the token resumes exactly
    /// (a single change larger than `limit` is sent whole).
    private func page(_ objects: [CalendarObject], removed: [String], current: Int, floor: Int, limit: Int?) -> CalendarChanges {
        guard let limit, objects.count > limit else {
            return CalendarChanges(changed: objects, removed: removed, token: current, isTruncated: false)
        }
        var end = max(limit, 0)
        if end > 0 {
            while end > 0, objects[end].revision == objects[end - 1].revision { end -= 1 }
            if end == 0 {
                end = limit
                while end < objects.count, objects[end].revision == objects[end - 1].revision { end += 1 }
            }
        }
        let token = end == 0 ? floor : objects[end - 1].revision
        return CalendarChanges(changed: Array(objects[..<end]), removed: removed, token: token, isTruncated: true)
    }
}

import Foundation
import SlateStore

/// Where a client's sync of one collection stands: what its RFC 6578 token says.
public struct CalendarSyncToken: Sendable, Hashable {
    /// The revision the client has every change through; for a first sync cut short by
    /// `DAV:limit`, the revision its listing began at.
    public var revision: Int
    /// A first sync cut short: it resumes with the objects changed after this revision
    /// (nil for an ordinary token)…
    public var listedThrough: Int?
    /// …and with those of that revision named after this (nil: all of them were sent).
    public var listedName: String?

    public init(revision: Int, listedThrough: Int? = nil, listedName: String? = nil) {
        self.revision = revision
        self.listedThrough = listedThrough
        self.listedName = listedName
    }
}

/// What changed in a collection since a sync token (RFC 6578).
public struct CalendarChanges: Sendable {
    /// Objects of the collection created or changed since the token, oldest change first.
    public let changed: [CalendarObject]
    /// Names of resources gone from the collection since the token (deleted, or moved to
    /// another list). A name the client never saw may appear; clients ignore those.
    public let removed: [String]
    /// The token to send next time.
    public let token: CalendarSyncToken
    /// True when `limit` cut the answer short: `token` then resumes after the last change sent.
    public let isTruncated: Bool
}

extension Slate {
    /// The changes of `collection` after `token` (nil: everything, for a first sync), at
    /// most `limit` objects (at least one per answer, so every page makes progress). Reads
    /// the account's change feed, so the cost follows the number of changes, not the size
    /// of the collection.
    ///
    /// A first sync cut short resumes by listing (objects after the last one sent, in order
    /// of revision and name), never through the feed: the collection's oldest objects may be
    /// older than the feed's window. Removals since the listing began come with its last
    /// page; a feed page carries the removals up to its own token. The pages together list
    /// each object and each removal once (again only when it changes again meanwhile).
    public func calendarChanges(in collection: CalendarCollectionID, since token: CalendarSyncToken?, limit: Int? = nil,
                                history: Int = CalendarLimits.syncHistory) throws -> CalendarChanges {
        let current = try revision()
        guard let token else { return try listing(collection, after: nil, began: current, current: current, limit: limit) }
        // A listing's last object may have changed after the listing began (listedThrough > revision).
        guard token.revision >= 0, token.revision <= current, (token.listedThrough ?? 0) >= 0,
              (token.listedThrough ?? 0) <= current else {
            throw CalendarObjectError.invalidSyncToken("The sync token \(token.revision) was not handed out by this server; sync again from scratch.")
        }
        guard current - token.revision <= history else {
            throw CalendarObjectError.invalidSyncToken(
                "The sync token \(token.revision) is older than the last \(history) changes this server keeps for sync; sync again from scratch.")
        }
        if let listed = token.listedThrough {
            return try listing(collection, after: (listed, token.listedName), began: token.revision, current: current, limit: limit)
        }
        let feed = try feedChanges(collection, since: token.revision, current: current)
        let cut = cut(feed.changed, floor: token.revision, limit: limit)
        guard let through = cut.through else {
            return CalendarChanges(changed: cut.objects, removed: feed.removed.map(\.name), token: CalendarSyncToken(revision: feed.revision),
                                   isTruncated: false)
        }
        return CalendarChanges(changed: cut.objects, removed: feed.removed.filter { $0.revision <= through }.map(\.name),
                               token: CalendarSyncToken(revision: through), isTruncated: true)
    }

    /// A first sync's listing, from the start (`after` nil) or resumed after an object (its
    /// revision and name); the listing began at revision `began`, whose removals since come
    /// with the last page. Objects go in order of revision, then name, so a page holds
    /// exactly `limit` of them (at least one) even when one change brought many (an import).
    private func listing(_ collection: CalendarCollectionID, after: (revision: Int, name: String?)?, began: Int, current: Int,
                         limit: Int?) throws -> CalendarChanges {
        let objects = try calendarObjects(in: collection).filter { object in
            guard let after else { return true }
            return object.revision > after.revision || (object.revision == after.revision && after.name.map { object.name > $0 } == true)
        }.sorted { ($0.revision, $0.name) < ($1.revision, $1.name) }
        if let limit, objects.count > max(limit, 1) {
            let page = Array(objects.prefix(max(limit, 1)))
            let last = page[page.count - 1]
            return CalendarChanges(changed: page, removed: [],
                                   token: CalendarSyncToken(revision: began, listedThrough: last.revision, listedName: last.name),
                                   isTruncated: true)
        }
        guard after != nil else {
            return CalendarChanges(changed: objects, removed: [], token: CalendarSyncToken(revision: current), isTruncated: false)
        }
        let feed = try feedChanges(collection, since: began, current: current)
        return CalendarChanges(changed: objects, removed: feed.removed.map(\.name), token: CalendarSyncToken(revision: feed.revision),
                               isTruncated: false)
    }

    /// The feed's changes of `collection` after `token`: changed objects in the order of the
    /// revision that brings each, removed names with the revision each left at.
    private func feedChanges(_ collection: CalendarCollectionID, since token: Int, current: Int) throws
        -> (changed: [(object: CalendarObject, revision: Int)], removed: [(name: String, revision: Int)], revision: Int) {
        let feed = try changes(since: token)
        let context = makeContext()
        let accountID = self.accountID
        // Where each task that left a list since the token was at the token (its first
        // departure), and when each one deleted since went (its last).
        var left: [UUID: UUID?] = [:]
        var deletedAt: [UUID: Int] = [:]
        for departure in try context.departures(of: TaskItem.self, since: token, partition: accountID) {
            if left[departure.id] == nil { left[departure.id] = .some(departure.group) }
            deletedAt[departure.id] = departure.revision
        }
        func wasHere(_ id: UUID) -> Bool { left[id].map { $0 == collection.listID } ?? false }
        var removed: [(name: String, revision: Int)] = []
        var rows: [UUID: CalendarResource] = [:]
        func row(_ id: UUID) throws -> CalendarResource? {
            if let known = rows[id] { return known }
            let found = try context.model(CalendarResource.self, id: id)
            rows[id] = found
            return found
        }
        // Tasks whose resource changed, each with the revision of the change that made it new
        // to the client when that is later than the task's own (an occurrence that became a
        // resource of its own when its series was deleted).
        var series: [UUID: Int] = [:]
        for task in feed.tasks {
            if let occurrence = try context.model(CalendarOccurrence.self, id: task.id),
               try context.model(TaskItem.self, id: occurrence.seriesID) != nil {
                // Served in its series' bytes: the series changed.
                series[occurrence.seriesID] = series[occurrence.seriesID] ?? 0
                continue
            }
            guard task.listID == collection.listID else {
                // Gone from here only if it was here at the token; changes in other lists are theirs.
                if wasHere(task.id) { removed.append((try row(task.id)?.name ?? Self.defaultName(task.id), deletedAt[task.id] ?? current)) }
                continue
            }
            series[task.id] = series[task.id] ?? 0
        }
        for id in feed.deletedTaskIDs {
            if let occurrence = try context.model(CalendarOccurrence.self, id: id),
               try context.model(TaskItem.self, id: occurrence.seriesID) != nil {
                // Its override left the series' bytes: the series changed (its ETag counts the deletion).
                series[occurrence.seriesID] = max(series[occurrence.seriesID] ?? 0, deletedAt[id] ?? current)
                continue
            }
            // A deleted series' occurrences become resources of their own.
            for occurrence in try occurrences(ofSeries: id, in: context) {
                series[occurrence.id] = max(series[occurrence.id] ?? 0, deletedAt[id] ?? current)
            }
            // A deletion without a departure was made before departures were recorded: reported everywhere.
            if wasHere(id) || left[id] == nil { removed.append((try row(id)?.name ?? Self.defaultName(id), deletedAt[id] ?? current)) }
        }
        var changed: [(object: CalendarObject, revision: Int)] = []
        for (id, announced) in series {
            guard let read = try context.revisioned(TaskItem.self, id: id), read.model.accountID == accountID,
                  read.model.listID == collection.listID else { continue }
            let revision = try seriesRevision(read.revision, try occurrences(ofSeries: id, in: context), in: context)
            changed.append((CalendarObject(name: try row(id)?.name ?? Self.defaultName(id), task: read.model,
                                           revision: revision, stored: try row(id)), max(revision, announced)))
        }
        changed.sort { $0.revision < $1.revision }
        return (changed, removed, max(current, feed.revision))
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

    /// At most `limit` objects (at least one), cut between two revisions so that a token
    /// resumes exactly (a single change larger than `limit` is sent whole); `through` is the
    /// revision the page ends at, nil when everything fits. `changes` are in the order of the
    /// revision that brings each; one at or before `floor` counts as just after it, so a
    /// page always moves the token on.
    private func cut(_ changes: [(object: CalendarObject, revision: Int)], floor: Int, limit: Int?)
        -> (objects: [CalendarObject], through: Int?) {
        guard let limit, changes.count > max(limit, 1) else { return (changes.map(\.object), nil) }
        let revisions = changes.map { max($0.revision, floor + 1) }
        let size = max(limit, 1)
        var end = size
        while end > 0, revisions[end] == revisions[end - 1] { end -= 1 }
        if end == 0 {
            end = size
            while end < changes.count, revisions[end] == revisions[end - 1] { end += 1 }
        }
        guard end < changes.count else { return (changes.map(\.object), nil) }
        return (changes[..<end].map(\.object), revisions[end - 1])
    }
}

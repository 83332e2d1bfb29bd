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
    /// The listing's pages also sent the removals up to its cursor, in its order; false for a
    /// listing token minted before removals were paged (its pages sent none, so every
    /// removal since `revision` is still to come).
    public var removalsListed: Bool
    /// An incremental sync cut short inside one revision: of the changes and removals of
    /// revision `revision + 1`, those named up to this one were sent (nil: none of them).
    public var sentName: String?

    public init(revision: Int, listedThrough: Int? = nil, listedName: String? = nil, removalsListed: Bool = false, sentName: String? = nil) {
        self.revision = revision
        self.listedThrough = listedThrough
        self.listedName = listedName
        self.removalsListed = removalsListed
        self.sentName = sentName
    }
}

/// What changed in a collection since a sync token (RFC 6578). `Changed` is what each changed
/// object comes as: the whole `CalendarObject`, or its name and ETag alone (`CalendarObjectTag`).
public struct CalendarChanges<Changed: Sendable>: Sendable {
    /// Objects of the collection created or changed since the token, oldest change first.
    public let changed: [Changed]
    /// Names of resources gone from the collection since the token (deleted, or moved to
    /// another list). A name the client never saw may appear; clients ignore those.
    public let removed: [String]
    /// The token to send next time.
    public let token: CalendarSyncToken
    /// True when `limit` cut the answer short: `token` then resumes after the last change sent.
    public let isTruncated: Bool
}

/// What a sync lists of an object: its name and the revision that orders it.
protocol SyncListed: Sendable {
    var name: String { get }
    var revision: Int { get }
}

extension CalendarObject: SyncListed {}
extension CalendarObjectTag: SyncListed {}

extension Slate {
    /// The changes of `collection` after `token` (nil: everything, for a first sync), at
    /// most `limit` objects and removals together (at least one per answer, so every page
    /// makes progress). Reads the account's change feed, so the cost follows the number of
    /// changes, not the size of the collection.
    ///
    /// A first sync cut short resumes by listing (objects after the last one sent, in order
    /// of revision and name), never through the feed: the collection's oldest objects may be
    /// older than the feed's window. The removals since the listing began join that order
    /// (by the revision each left at), so a page after the first may end on one.
    ///
    /// An incremental sync orders its changes and removals by revision, then name, and cuts
    /// after exactly `limit` of them, inside a revision if need be (one import of many tasks):
    /// the token then names the last one sent of that revision (`sentName`). The pages
    /// together list each object and each removal once (again only when it changes again
    /// meanwhile), as one answer without a limit would.
    public func calendarChanges(in collection: CalendarCollectionID, since token: CalendarSyncToken?, limit: Int? = nil,
                                history: Int = CalendarLimits.syncHistory) throws -> CalendarChanges<CalendarObject> {
        try changes(of: collection, since: token, limit: limit, history: history, listing: calendarObjects(in:)) { $0 }
    }

    /// The same changes as `calendarChanges(in:since:limit:history:)`, in the same order and
    /// pages, each changed object by its name and ETag alone: for a client that asks for ETags
    /// only, a first sync lists the collection's names and revisions without reading a task
    /// (`calendarObjectTags(in:)`, or `listing` in its place: a caller that keeps listings).
    public func calendarChangeTags(in collection: CalendarCollectionID, since token: CalendarSyncToken?, limit: Int? = nil,
                                   history: Int = CalendarLimits.syncHistory,
                                   listing: ((CalendarCollectionID) throws -> [CalendarObjectTag])? = nil) throws -> CalendarChanges<CalendarObjectTag> {
        try changes(of: collection, since: token, limit: limit, history: history, listing: listing ?? calendarObjectTags(in:)) {
            CalendarObjectTag(name: $0.name, revision: $0.revision)
        }
    }

    /// `calendarChanges` for either form of object: `list` lists the collection (a first
    /// sync), `fromFeed` turns an object read from the change feed into that form.
    private func changes<Changed: SyncListed>(of collection: CalendarCollectionID, since token: CalendarSyncToken?, limit: Int?, history: Int,
                                              listing list: (CalendarCollectionID) throws -> [Changed],
                                              fromFeed: (CalendarObject) -> Changed) throws -> CalendarChanges<Changed> {
        let current = try revision()
        guard let token else { return try listing(list(collection), of: collection, after: nil, began: current, current: current, limit: limit) }
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
            guard token.sentName == nil else {
                throw CalendarObjectError.invalidSyncToken("The sync token \(token.revision) was not handed out by this server; sync again from scratch.")
            }
            return try listing(list(collection), of: collection, after: (listed, token.listedName), removalsListed: token.removalsListed,
                               began: token.revision, current: current, limit: limit)
        }
        let feed = try feedChanges(collection, since: token.revision, current: current)
        let entries = Self.entries(feed, floor: token.revision, as: fromFeed).filter { entry in
            guard let sent = token.sentName, entry.revision == token.revision + 1 else { return true }
            return entry.name > sent
        }
        guard let limit, entries.count > max(limit, 1) else {
            return CalendarChanges(changed: entries.compactMap(\.object), removed: entries.filter { $0.object == nil }.map(\.name),
                                   token: CalendarSyncToken(revision: feed.revision), isTruncated: false)
        }
        let page = entries.prefix(max(limit, 1))
        let last = page[page.endIndex - 1]
        // Cut between two revisions: an ordinary token; inside one: the last name sent of it.
        let next = entries[page.endIndex].revision == last.revision
            ? CalendarSyncToken(revision: last.revision - 1, sentName: last.name) : CalendarSyncToken(revision: last.revision)
        return CalendarChanges(changed: page.compactMap(\.object), removed: page.filter { $0.object == nil }.map(\.name),
                               token: next, isTruncated: true)
    }

    /// One response of a sync: a changed object, or a removed name (`object` nil).
    private struct SyncEntry<Changed> {
        let revision: Int
        let name: String
        let object: Changed?
    }

    /// The feed's changes and removals as one sequence in order of revision, then name, each
    /// name once (a changed object wins over a removal of its name; of two removals, the
    /// later). One at or before `floor` counts as just after it, so a page moves the token on.
    private static func entries<Changed>(_ feed: (changed: [(object: CalendarObject, revision: Int)], removed: [(name: String, revision: Int)], revision: Int),
                                         floor: Int, as form: (CalendarObject) -> Changed) -> [SyncEntry<Changed>] {
        let entries = feed.changed.map { SyncEntry(revision: max($0.revision, floor + 1), name: $0.object.name, object: form($0.object)) }
            + removals(feed.removed, floor: floor, except: Set(feed.changed.map(\.object.name)))
        return entries.sorted { ($0.revision, $0.name) < ($1.revision, $1.name) }
    }

    /// Removed names as entries, each once (at the later revision of two), none of `except`
    /// (names present after all); one at or before `floor` counts as just after it.
    private static func removals<Changed>(_ removed: [(name: String, revision: Int)], floor: Int, except: Set<String>) -> [SyncEntry<Changed>] {
        var revisions: [String: Int] = [:]
        for removal in removed where !except.contains(removal.name) {
            revisions[removal.name] = max(revisions[removal.name] ?? 0, max(removal.revision, floor + 1))
        }
        return revisions.map { SyncEntry(revision: $0.value, name: $0.key, object: nil) }
    }

    /// A first sync's listing, from the start (`after` nil) or resumed after an object or a
    /// removal (its revision and name); the listing began at revision `began`. Objects, and
    /// after the first page the removals since `began`, go in order of revision, then name,
    /// so a page holds exactly `limit` of them (at least one) even when one change brought
    /// many (an import). A removal made after a page was cut has a later revision than
    /// anything that page saw, so no removal falls behind the cursor unsent. After a token
    /// whose pages sent no removals (`removalsListed` false), all of them still come. `all`
    /// is the collection as listed now, objects or tags.
    private func listing<Changed: SyncListed>(_ all: [Changed], of collection: CalendarCollectionID, after: (revision: Int, name: String?)?,
                                              removalsListed: Bool = true, began: Int, current: Int, limit: Int?) throws -> CalendarChanges<Changed> {
        func isAfter(_ revision: Int, _ name: String) -> Bool {
            guard let after else { return true }
            return revision > after.revision || (revision == after.revision && after.name.map { name > $0 } == true)
        }
        var entries = all.filter { isAfter($0.revision, $0.name) }.map { SyncEntry(revision: $0.revision, name: $0.name, object: $0) }
        var revision = current
        if after != nil {
            // Removals since the listing began: none before its first page.
            let feed = try feedChanges(collection, since: began, current: current)
            revision = feed.revision
            let present = Set(all.map(\.name))
            entries += Self.removals(feed.removed, floor: began, except: present).filter { !removalsListed || isAfter($0.revision, $0.name) }
        }
        entries.sort { ($0.revision, $0.name) < ($1.revision, $1.name) }
        guard let limit, entries.count > max(limit, 1) else {
            return CalendarChanges(changed: entries.compactMap(\.object), removed: entries.filter { $0.object == nil }.map(\.name),
                                   token: CalendarSyncToken(revision: revision), isTruncated: false)
        }
        let page = entries.prefix(max(limit, 1))
        let last = page[page.endIndex - 1]
        return CalendarChanges(changed: page.compactMap(\.object), removed: page.filter { $0.object == nil }.map(\.name),
                               token: CalendarSyncToken(revision: began, listedThrough: last.revision, listedName: last.name, removalsListed: true),
                               isTruncated: true)
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
}

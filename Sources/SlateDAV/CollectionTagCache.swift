import Foundation
import SlateCore
import Synchronization

/// Each collection's names and ETags as its last listing found them (a PROPFIND of ETags, a
/// calendar-query), kept under the account's revision at that listing.
///
/// A client that polls (Apple's apps, Thunderbird) lists the same collection again and
/// again while nothing changes; the next listing at the same revision is the kept one,
/// in the same order, with no task read.
///
/// A client syncs by listing a collection and then fetching what changed with multigets of
/// a few dozen to a hundred objects (DAVx5, Thunderbird); every multiget of that round asks
/// the store again for the ETags the listing just read. While the account's revision is the
/// listing's, nothing of the account has changed (every write to its tasks, resources and
/// occurrences moves it, from this process or another), so the listing still names exactly
/// the collection's objects: a name it lacks is not there, and one it has carries the ETag
/// the store would give (`Slate.calendarObjectTags(named:in:)` names the same objects as
/// `calendarObjectTags(in:)` lists). The next write makes it a miss, never a wrong answer.
final class CollectionTagCache: Sendable {
    private struct Key: Hashable {
        let account: UUID
        let collection: CalendarCollectionID
    }

    private struct Listing {
        let revision: Int
        let tags: [CalendarObjectTag]
        let byName: [String: Int]
    }

    private struct Entries {
        var listings: [Key: Listing] = [:]
        var names = 0
        var collections: [CollectionName: (stamp: Int, info: CalendarCollectionInfo?)] = [:]
    }

    private struct CollectionName: Hashable {
        let account: UUID
        let name: String
    }

    /// Beyond this many collections' addresses kept, those start over.
    static let collectionCapacity = 10_000

    /// Beyond this many names kept, the cache starts over (ten collections of 10,000).
    static let capacity = 100_000

    private let entries = Mutex(Entries())

    /// The ETag revision of each object of `collection` by name, if it was listed at the
    /// account's `revision`.
    func tags(of collection: CalendarCollectionID, account: UUID, at revision: Int) -> [String: Int]? {
        listing(of: collection, account: account, at: revision)?.byName
    }

    /// The objects of `collection` in the order its listing at the account's `revision`
    /// gave them, if it was listed then.
    func listedTags(of collection: CalendarCollectionID, account: UUID, at revision: Int) -> [CalendarObjectTag]? {
        listing(of: collection, account: account, at: revision)?.tags
    }

    private func listing(of collection: CalendarCollectionID, account: UUID, at revision: Int) -> Listing? {
        entries.withLock { entries in
            guard let listing = entries.listings[Key(account: account, collection: collection)], listing.revision == revision else { return nil }
            return listing
        }
    }

    /// Keeps a listing of `collection` made at the account's `revision`.
    func remember(_ tags: [CalendarObjectTag], of collection: CalendarCollectionID, account: UUID, at revision: Int) {
        guard tags.count <= Self.capacity else { return }
        let byName = Dictionary(tags.map { ($0.name, $0.revision) }, uniquingKeysWith: { first, _ in first })
        entries.withLock { entries in
            let key = Key(account: account, collection: collection)
            entries.names -= entries.listings[key]?.tags.count ?? 0
            if entries.names + byName.count > Self.capacity {
                entries.listings.removeAll(keepingCapacity: true)
                entries.names = 0
            }
            entries.listings[key] = Listing(revision: revision, tags: tags, byName: byName)
            entries.names += byName.count
        }
    }

    /// What the address segment `name` named at the collections' `stamp`
    /// (`Slate.calendarCollectionsStamp`; nil inside: no collection), if it was looked up
    /// then. The stamp moves with every change to a list or a collection's name, and with
    /// nothing else: a task's change (every PUT) no longer makes the next request look its
    /// collection up again.
    func collection(named name: String, account: UUID, at stamp: Int) -> CalendarCollectionInfo?? {
        entries.withLock { entries in
            guard let kept = entries.collections[CollectionName(account: account, name: name)], kept.stamp == stamp else { return nil }
            return .some(kept.info)
        }
    }

    /// Keeps what `name` named at the collections' `stamp`.
    func remember(_ info: CalendarCollectionInfo?, named name: String, account: UUID, at stamp: Int) {
        entries.withLock { entries in
            if entries.collections.count >= Self.collectionCapacity { entries.collections.removeAll(keepingCapacity: true) }
            entries.collections[CollectionName(account: account, name: name)] = (stamp, info)
        }
    }
}

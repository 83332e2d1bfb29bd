import Foundation
import SlateCore
import Synchronization

/// Each collection's names and ETags as its last listing found them (a PROPFIND of ETags, a
/// calendar-query), kept under the account's revision at that listing.
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

    private struct Entries {
        var listings: [Key: (revision: Int, tags: [String: Int])] = [:]
        var names = 0
    }

    /// Beyond this many names kept, the cache starts over (ten collections of 10,000).
    static let capacity = 100_000

    private let entries = Mutex(Entries())

    /// The ETag revision of each object of `collection` by name, if it was listed at the
    /// account's `revision`.
    func tags(of collection: CalendarCollectionID, account: UUID, at revision: Int) -> [String: Int]? {
        entries.withLock { entries in
            guard let listing = entries.listings[Key(account: account, collection: collection)], listing.revision == revision else { return nil }
            return listing.tags
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
            entries.listings[key] = (revision, byName)
            entries.names += byName.count
        }
    }
}

import Foundation
import Synchronization

/// Ready-to-send `<d:response>` elements of calendar objects (href, ETag, escaped
/// calendar data), kept by everything their bytes depend on: the account and its time zone
/// (an alert at 9:00 on the day is a moment there), the href, the object's entity tag and
/// the properties asked. A calendar-query or multiget answered again
/// copies them instead of reading, rewriting and escaping each object's bytes.
///
/// Nothing is ever invalidated in place: a write to an object, from this process or another,
/// gives it a new revision (its ETag, read from the store with each listing), so the next
/// answer asks for a new key and the old entry is simply never asked for again. That holds
/// exactly as far as the ETag's own promise, "new whenever the served bytes may differ",
/// which clients already rely on to skip reading an object again.
final class CalendarResponseCache: Sendable {
    struct Key: Hashable, Sendable {
        let account: UUID
        let zone: String
        let href: String
        let revision: Int
        let properties: [PropertyName]
        /// `properties`' hash, worked out once for all the objects of an answer (`keys`):
        /// hashing the names' strings again for each of 10,000 objects was a tenth of a
        /// calendar-query.
        private let propertiesHash: Int

        private init(account: UUID, zone: String, href: String, revision: Int, properties: [PropertyName], propertiesHash: Int) {
            self.account = account
            self.zone = zone
            self.href = href
            self.revision = revision
            self.properties = properties
            self.propertiesHash = propertiesHash
        }

        /// The keys of one answer's objects, by href and revision, for the same properties.
        static func keys(account: UUID, zone: String, properties: [PropertyName], objects: [(href: String, revision: Int)]) -> [Key] {
            let hash = properties.hashValue
            return objects.map {
                Key(account: account, zone: zone, href: $0.href, revision: $0.revision, properties: properties, propertiesHash: hash)
            }
        }

        static func == (left: Key, right: Key) -> Bool {
            left.revision == right.revision && left.href == right.href && left.account == right.account && left.zone == right.zone
                && left.propertiesHash == right.propertiesHash && left.properties == right.properties
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(account)
            hasher.combine(href)
            hasher.combine(revision)
            hasher.combine(propertiesHash)
        }
    }

    /// Beyond this many bytes kept, the cache starts over (twice a 10,000-object answer).
    static let capacity = 16 << 20

    private struct Entries {
        var responses: [Key: [UInt8]] = [:]
        var bytes = 0
    }

    private let entries = Mutex(Entries())

    /// The properties whose values follow from an object's revision alone (its bytes, their
    /// length, its ETag and its kind): an answer asking for only these may be kept.
    static let properties: Set<PropertyName> = [PropertyName(Namespace.dav, "getetag"), PropertyName(Namespace.caldav, "calendar-data"),
                                                PropertyName(Namespace.dav, "getcontentlength"), PropertyName(Namespace.dav, "getcontenttype"),
                                                PropertyName(Namespace.dav, "resourcetype")]

    /// Whether an answer for `names` may be kept (and nothing beyond the stored bytes, such as
    /// CALDAV:expand or partial retrieval, is asked).
    static func keeps(_ names: [PropertyName]?, calendarData: CalendarDataRequest?) -> Bool {
        guard calendarData == nil, let names, !names.isEmpty else { return false }
        return names.allSatisfy(properties.contains)
    }

    /// The kept response of each key, in order (nil where none is kept): one lock for all.
    func responses(for keys: [Key]) -> [[UInt8]?] {
        entries.withLock { entries in keys.map { entries.responses[$0] } }
    }

    func remember(_ response: [UInt8], for key: Key) {
        entries.withLock { entries in
            if entries.bytes + response.count > Self.capacity {
                entries.responses.removeAll(keepingCapacity: true)
                entries.bytes = 0
            }
            if entries.responses.updateValue(response, forKey: key) == nil { entries.bytes += response.count }
        }
    }

    /// How many responses are kept (for tests).
    var count: Int { entries.withLock { $0.responses.count } }
}

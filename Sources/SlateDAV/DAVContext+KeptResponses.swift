import Foundation
import SlateCore

extension DAVContext {
    typealias ListedObject = (CalendarCollectionInfo, CalendarObject, href: String)

    /// `add(objects:names:to:revision:)` through the kept responses (`CalendarResponseCache`):
    /// an object whose response is kept under its href and ETag is copied; the others are
    /// read together, written, and kept. The same bytes as writing every one afresh.
    func addKept(_ objects: [ListedObject], names: [PropertyName], cache: CalendarResponseCache,
                 to multiStatus: inout MultiStatus, revision: () throws -> Int) throws {
        let keys = CalendarResponseCache.Key.keys(account: slate.accountID, zone: slate.calendar.timeZone.identifier, properties: names,
                                                  objects: objects.map { ($0.href, $0.1.revision) })
        let written = try writeKept(keys, names: names, cache: cache, to: &multiStatus, revision: revision) { missed in missed.map { objects[$0] } }
        assert(written, "every object was given")
    }

    /// A calendar-query without a filter beyond VTODO, through the kept responses: the
    /// collection is listed by names and ETags (`Slate.calendarObjectTags(in:)`), and only the
    /// objects whose responses are not kept are read (`Slate.calendarObjects(named:in:)`).
    /// False, with nothing written, when a listed object was not found by its name (then
    /// the caller answers as without the cache).
    func addKept(listing info: CalendarCollectionInfo, names: [PropertyName], cache: CalendarResponseCache,
                 to multiStatus: inout MultiStatus, revision: () throws -> Int) throws -> Bool {
        let tags = try objectTags(in: info)
        let href = paths.objects(in: info.name)
        let hrefs = tags.map { href($0.name) }
        let keys = CalendarResponseCache.Key.keys(account: slate.accountID, zone: slate.calendar.timeZone.identifier, properties: names,
                                                  objects: tags.indices.map { (hrefs[$0], tags[$0].revision) })
        return try writeKept(keys, names: names, cache: cache, to: &multiStatus, revision: revision) { missed in
            let objects = try slate.calendarObjects(named: missed.map { tags[$0].name }, in: info.id)
            return zip(missed, objects).map { index, object in
                // Listed under this ETag: read under another only if it changed since, which one snapshot rules out.
                guard let object, object.revision == tags[index].revision else { return nil }
                return (info, object, hrefs[index])
            }
        }
    }

    /// A collection's names and ETags (`Slate.calendarObjectTags(in:)`), kept for the
    /// multigets and listings that follow while the account does not change
    /// (`CollectionTagCache`).
    func objectTags(in info: CalendarCollectionInfo) throws -> [CalendarObjectTag] {
        guard let tagListings else { return try slate.calendarObjectTags(in: info.id) }
        let revision = try slate.revision()
        if let listed = tagListings.listedTags(of: info.id, account: slate.accountID, at: revision) { return listed }
        let tags = try slate.calendarObjectTags(in: info.id)
        tagListings.remember(tags, of: info.id, account: slate.accountID, at: revision)
        return tags
    }

    /// A multiget's href, read as a collection's object.
    typealias AskedObject = (href: String, collection: String, name: String)

    /// A calendar-multiget through the kept responses: each collection's objects are named
    /// with their ETags first (from the collection's last listing when the account has not
    /// changed since, `CollectionTagCache`, else `Slate.calendarObjectTags(named:in:)`), and
    /// only the objects whose responses are not kept are read whole. The same bytes as
    /// writing every one afresh. Returns the indices of `asked` that name nothing (nil
    /// entries among them), for the caller's 404s; nil, with nothing written, when an object
    /// was not found whole.
    func addKept(multiget asked: [AskedObject?], collections: [String: CalendarCollectionInfo?], names: [PropertyName],
                 cache: CalendarResponseCache, to multiStatus: inout MultiStatus, revision: () throws -> Int) throws -> [Int]? {
        var revisions: [String: [String: Int]] = [:]
        let accountRevision = try tagListings.map { _ in try revision() }
        for (collection, info) in collections {
            guard let info else { continue }
            if let accountRevision, let listed = tagListings?.tags(of: info.id, account: slate.accountID, at: accountRevision) {
                revisions[collection] = listed
                continue
            }
            let wanted = asked.compactMap { $0?.collection == collection ? $0?.name : nil }
            let tags = try slate.calendarObjectTags(named: wanted, in: info.id)
            revisions[collection] = Dictionary(zip(wanted, tags).compactMap { name, tag in tag.map { (name, $0.revision) } },
                                               uniquingKeysWith: { first, _ in first })
        }
        // Each object by its collection's ETags (a collection's info is copied only for the
        // objects read whole below: copying it for each of 100 was a twentieth of a multiget).
        var listed: [(entry: AskedObject, revision: Int)] = []
        var notFound: [Int] = []
        var last: (collection: String, tags: [String: Int])?
        for (index, entry) in asked.enumerated() {
            guard let entry else {
                notFound.append(index)
                continue
            }
            if last?.collection != entry.collection { last = revisions[entry.collection].map { (entry.collection, $0) } }
            guard let revision = last?.tags[entry.name] else {
                notFound.append(index)
                continue
            }
            listed.append((entry, revision))
        }
        let keys = CalendarResponseCache.Key.keys(account: slate.accountID, zone: slate.calendar.timeZone.identifier, properties: names,
                                                  objects: listed.map { ($0.entry.href, $0.revision) })
        let written = try writeKept(keys, names: names, cache: cache, to: &multiStatus, revision: revision) { missed in
            var objects: [Int: ListedObject] = [:]
            for (collection, indices) in Dictionary(grouping: missed, by: { listed[$0].entry.collection }) {
                guard let info = collections[collection] ?? nil else { continue }
                let found = try slate.calendarObjects(named: indices.map { listed[$0].entry.name }, in: info.id)
                // Named under this ETag: read under another only if it changed since, which one snapshot rules out.
                for (index, object) in zip(indices, found) {
                    if let object, object.revision == listed[index].revision { objects[index] = (info, object, listed[index].entry.href) }
                }
            }
            return missed.map { objects[$0] }
        }
        return written ? notFound : nil
    }

    /// Appends the responses of `keys` in order: kept ones copied, the others (`missing`, by
    /// index) written and kept. False, with nothing appended, when `missing` lacks one.
    private func writeKept(_ keys: [CalendarResponseCache.Key], names: [PropertyName], cache: CalendarResponseCache,
                           to multiStatus: inout MultiStatus, revision: () throws -> Int,
                           missing: ([Int]) throws -> [ListedObject?]) throws -> Bool {
        var kept = cache.responses(for: keys)
        let missed = kept.indices.filter { kept[$0] == nil }
        if !missed.isEmpty {
            let found = try missing(missed)
            let objects = found.compactMap { $0 }
            guard objects.count == missed.count else { return false }
            let dataNames: Set<PropertyName> = [PropertyName(Namespace.caldav, "calendar-data"), PropertyName(Namespace.dav, "getcontentlength")]
            let wantsData = names.contains(where: dataNames.contains)
            let data = wantsData ? try slate.calendarData(of: objects.map(\.1)) : []
            for (position, index) in missed.enumerated() {
                let (info, object, href) = objects[position]
                var response = MultiStatus.responses()
                try add(.object(info, object), href: href, names: names, to: &response, revision: revision, data: wantsData ? data[position] : nil)
                kept[index] = response.bytes
                cache.remember(response.bytes, for: keys[index])
            }
        }
        multiStatus.add(responses: kept.map { $0 ?? [] })
        return true
    }
}

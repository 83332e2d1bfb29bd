import Foundation
import SlateCore

extension DAVContext {
    typealias ListedObject = (CalendarCollectionInfo, CalendarObject, href: String)

    /// `add(objects:names:to:revision:)` through the kept responses (`CalendarResponseCache`):
    /// an object whose response is kept under its href and ETag is copied; the others are
    /// read together, written, and kept. The same bytes as writing every one afresh.
    func addKept(_ objects: [ListedObject], names: [PropertyName], cache: CalendarResponseCache,
                 to multiStatus: inout MultiStatus, revision: () throws -> Int) throws {
        let keys = CalendarResponseCache.Key.keys(account: slate.accountID, properties: names,
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
        let tags = try slate.calendarObjectTags(in: info.id)
        let href = paths.objects(in: info.name)
        let hrefs = tags.map { href($0.name) }
        let keys = CalendarResponseCache.Key.keys(account: slate.accountID, properties: names,
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

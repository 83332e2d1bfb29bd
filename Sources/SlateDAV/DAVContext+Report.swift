import Foundation
import SlateCore
import SlateHTTP

extension DAVContext {
    /// REPORT: calendar-multiget, calendar-query (RFC 4791 §7.8–7.9; their calendar-data may ask
    /// for CALDAV:expand and partial retrieval, see `calendarDataRequest(in:)`), sync-collection (RFC 6578).
    func report(_ target: DAVTarget) throws -> Response {
        guard let body = try xmlBody() else { return Self.failure(.badRequest, nil, "A REPORT needs an XML body naming the report.") }
        let names = body.child(Namespace.dav, "prop").map { $0.children.map(PropertyName.init) }
        let resource = try resolve(target)
        // CALDAV:expand and partial retrieval, for the CalDAV reports (sync-collection's calendar-data is returned as stored).
        let calendarData: CalendarDataRequest?
        do {
            calendarData = body.namespace == Namespace.caldav ? try Self.calendarDataRequest(in: body.child(Namespace.dav, "prop")) : nil
        } catch {
            return Self.failure(.badRequest, PropertyName(Namespace.caldav, "supported-calendar-data"), error.description)
        }
        switch (body.namespace, body.name) {
        case (Namespace.caldav, "calendar-multiget"):
            return try multiget(body, names: names, target: target, calendarData: calendarData)
        case (Namespace.caldav, "calendar-query"):
            guard case .collection(let info) = resource else { return unsupportedReport(body) }
            let filter = try Self.filter(body.child(Namespace.caldav, "filter"))
            if let test = filter.unsupportedTest {
                return Self.failure(.forbidden, PropertyName(Namespace.caldav, "supported-filter"), "This server does not evaluate \(test).")
            }
            var multiStatus = MultiStatus()
            if filter.isBare, let responses, let names, CalendarResponseCache.keeps(names, calendarData: calendarData),
               try addKept(listing: info, names: names, cache: responses, to: &multiStatus, revision: slate.revision) {
                return Self.multiStatus(multiStatus.finished())
            }
            let objects = try slate.calendarObjects(in: info.id, matching: filter)
            let href = paths.objects(in: info.name)
            try add(objects: objects.map { (info, $0, href($0.name)) }, names: names, to: &multiStatus,
                    revision: slate.revision, calendarData: calendarData)
            return Self.multiStatus(multiStatus.finished())
        case (Namespace.dav, "sync-collection"):
            guard case .collection(let info) = resource else { return unsupportedReport(body) }
            return try syncCollection(body, names: names, info: info)
        default:
            return unsupportedReport(body)
        }
    }

    private func unsupportedReport(_ body: XMLElement) -> Response {
        Self.failure(.forbidden, PropertyName(Namespace.dav, "supported-report"),
                     "The report \(body.name) is not served here; collections answer calendar-multiget, calendar-query and sync-collection.")
    }

    private func multiget(_ body: XMLElement, names: [PropertyName]?, target: DAVTarget, calendarData: CalendarDataRequest?) throws -> Response {
        let hrefs = body.children.filter { $0.is(Namespace.dav, "href") }.map { $0.text.trimmedWhitespace }
        var multiStatus = MultiStatus()
        var collections: [String: CalendarCollectionInfo?] = [:]
        // The hrefs by collection, each collection's objects read at once.
        var asked: [AskedObject?] = []
        // The collection the report was sent to, when its path ends with a slash: an href
        // under it (what clients send) names an object by its last segment alone.
        let base: (path: String, collection: String)?
        if request.path.hasSuffix("/"), case .collection(let name) = target { base = (request.path, name) } else { base = nil }
        for href in hrefs {
            let path = href.hasPrefix("/") ? href : (URLComponents(string: href)?.path ?? href)
            let target = base.flatMap { base in
                DAVTarget.segment(of: path, under: base.path).map { DAVTarget.object(collection: base.collection, name: $0) }
            } ?? DAVTarget.parse(path, account: paths.account)
            guard case .object(let collectionName, let name)? = target else {
                asked.append(nil)
                continue
            }
            if collections[collectionName] == nil { collections[collectionName] = .some(try collectionInfo(named: collectionName)) }
            asked.append((href, collectionName, name))
        }
        if let responses, let names, CalendarResponseCache.keeps(names, calendarData: calendarData),
           let notFound = try addKept(multiget: asked, collections: collections, names: names, cache: responses, to: &multiStatus,
                                      revision: slate.revision) {
            for index in notFound { multiStatus.add(href: hrefs[index], status: 404) }
            return Self.multiStatus(multiStatus.finished())
        }
        var objects: [String: [String: CalendarObject]] = [:]
        for (collectionName, info) in collections {
            guard let info else { continue }
            let names = asked.compactMap { $0?.collection == collectionName ? $0?.name : nil }
            let found = try slate.calendarObjects(named: names, in: info.id)
            objects[collectionName] = Dictionary(zip(names, found).compactMap { name, object in object.map { (name, $0) } },
                                                 uniquingKeysWith: { first, _ in first })
        }
        var found: [(CalendarCollectionInfo, CalendarObject, href: String)] = []
        var missing: [String] = []
        for (index, entry) in asked.enumerated() {
            guard let entry, let info = collections[entry.collection] ?? nil, let object = objects[entry.collection]?[entry.name] else {
                missing.append(hrefs[index])
                continue
            }
            found.append((info, object, entry.href))
        }
        try add(objects: found, names: names, to: &multiStatus, revision: slate.revision, calendarData: calendarData)
        for href in missing { multiStatus.add(href: href, status: 404) }
        return Self.multiStatus(multiStatus.finished())
    }

    private func syncCollection(_ body: XMLElement, names: [PropertyName]?, info: CalendarCollectionInfo) throws -> Response {
        let tokenText = body.child(Namespace.dav, "sync-token")?.text.trimmedWhitespace ?? ""
        var token: CalendarSyncToken?
        if !tokenText.isEmpty {
            guard let revision = Self.position(ofSyncToken: tokenText) else {
                throw CalendarObjectError.invalidSyncToken("The sync token '\(tokenText.prefix(80))' was not handed out by this server; sync again without one.")
            }
            token = revision
        }
        if let level = body.child(Namespace.dav, "sync-level")?.text.trimmedWhitespace, level != "1" {
            return Self.failure(.forbidden, PropertyName(Namespace.dav, "sync-traversal-supported"), "Only sync-level 1 is served; got '\(level)'.")
        }
        var limit: Int?
        if let nresults = body.child(Namespace.dav, "limit")?.child(Namespace.dav, "nresults") {
            guard let value = Int(nresults.text.trimmedWhitespace), value >= 1 else {
                // Zero per page could never move the token on.
                return Self.failure(.badRequest, PropertyName(Namespace.dav, "number-of-matches-within-limits"),
                                    "DAV:nresults must be a whole number of 1 or more.")
            }
            limit = value
        }
        var multiStatus = MultiStatus()
        let href = paths.objects(in: info.name)
        let removed: [String]
        let changes: (token: CalendarSyncToken, isTruncated: Bool)
        if let names, names.allSatisfy(Self.tagProperties.contains) {
            // ETags and the like (what clients ask): names and revisions, no task read for a first sync.
            let tags = try slate.calendarChangeTags(in: info.id, since: token, limit: limit, history: syncHistory) { _ in try objectTags(in: info) }
            add(tags: tags.changed, names: names, collection: info.name, to: &multiStatus)
            removed = Array(Set(tags.removed).subtracting(tags.changed.map(\.name))).sorted()
            changes = (tags.token, tags.isTruncated)
        } else {
            let objects = try slate.calendarChanges(in: info.id, since: token, limit: limit, history: syncHistory)
            try add(objects: objects.changed.map { (info, $0, href($0.name)) }, names: names, to: &multiStatus,
                    revision: slate.revision)
            removed = Array(Set(objects.removed).subtracting(objects.changed.map(\.name))).sorted()
            changes = (objects.token, objects.isTruncated)
        }
        for name in removed { multiStatus.add(href: href(name), status: 404) }
        if changes.isTruncated {
            multiStatus.add(href: paths.collection(info.name), status: 507, error: PropertyName(Namespace.dav, "number-of-matches-within-limits"))
        }
        return Self.multiStatus(multiStatus.finished(syncToken: Self.syncToken(changes.token)))
    }

    /// A calendar-query filter from its XML.
    static func filter(_ element: XMLElement?) throws -> CalendarFilter {
        guard let top = element?.children.first(where: { $0.is(Namespace.caldav, "comp-filter") }) else {
            throw CalendarObjectError.invalidFilter("A calendar-query needs a filter with a comp-filter.")
        }
        return CalendarFilter(root: try component(top))
    }

    private static func component(_ element: XMLElement) throws -> CalendarFilter.Component {
        guard let name = element.attributes["name"], !name.isEmpty else { throw CalendarObjectError.invalidFilter("A comp-filter needs a name.") }
        var filter = CalendarFilter.Component(name: name)
        for child in element.children where child.namespace == Namespace.caldav {
            switch child.name {
            case "is-not-defined": filter.isNotDefined = true
            case "time-range": filter.timeRange = try timeRange(child)
            case "prop-filter":
                guard let propertyName = child.attributes["name"], !propertyName.isEmpty else {
                    throw CalendarObjectError.invalidFilter("A prop-filter needs a name.")
                }
                var property = CalendarFilter.Property(name: propertyName)
                for test in child.children where test.namespace == Namespace.caldav {
                    switch test.name {
                    case "is-not-defined": property.isNotDefined = true
                    case "time-range": property.timeRange = try timeRange(test)
                    case "text-match": property.textMatch = textMatch(test)
                    case "param-filter":
                        var parameter = CalendarFilter.Parameter(name: test.attributes["name"] ?? "")
                        parameter.isNotDefined = test.child(Namespace.caldav, "is-not-defined") != nil
                        parameter.textMatch = test.child(Namespace.caldav, "text-match").map(textMatch)
                        property.parameters.append(parameter)
                    default: break
                    }
                }
                filter.properties.append(property)
            case "comp-filter": filter.components.append(try component(child))
            default: break
            }
        }
        return filter
    }

    private static func textMatch(_ element: XMLElement) -> CalendarFilter.TextMatch {
        CalendarFilter.TextMatch(text: element.text, isNegated: element.attributes["negate-condition"]?.lowercased() == "yes",
                                 isCaseSensitive: element.attributes["collation"] == "i;octet")
    }

    private static func timeRange(_ element: XMLElement) throws -> CalendarFilter.TimeRange {
        func moment(_ name: String) throws -> Date? {
            guard let text = element.attributes[name] else { return nil }
            guard let date = utcMoment(text) else {
                throw CalendarObjectError.invalidFilter("time-range \(name) must be a UTC date-time such as 20261201T000000Z; got '\(text.prefix(40))'.")
            }
            return date
        }
        let range = CalendarFilter.TimeRange(start: try moment("start"), end: try moment("end"))
        guard range.start != nil || range.end != nil else { throw CalendarObjectError.invalidFilter("A time-range needs a start or an end.") }
        return range
    }

    /// `20261201T000000Z`.
    static func utcMoment(_ text: String) -> Date? {
        let pattern = #/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/#
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: Int(match.1), month: Int(match.2), day: Int(match.3),
                                                  hour: Int(match.4), minute: Int(match.5), second: Int(match.6)))
    }
}

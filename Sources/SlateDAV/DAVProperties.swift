import Foundation
import SlateCore

/// A resource a request reached, resolved against the account's data.
enum DAVResource {
    case root
    case principals
    case principal
    case home
    case collection(CalendarCollectionInfo)
    case object(CalendarCollectionInfo, CalendarObject)
}

extension DAVContext {
    /// The resource `target` names, or a 404 error.
    func resolve(_ target: DAVTarget) throws -> DAVResource {
        switch target {
        case .root: return .root
        case .principals: return .principals
        case .principal: return .principal
        case .home: return .home
        case .collection(let name): return .collection(try collection(name))
        case .object(let collectionName, let name):
            let info = try collection(collectionName)
            guard let object = try slate.calendarObject(named: name, in: info.id) else {
                throw CalendarObjectError.notFound("resource \(name) in \(collectionName)")
            }
            return .object(info, object)
        }
    }

    /// The properties `allprop` and `propname` list for a resource.
    func propertyNames(of resource: DAVResource) -> [PropertyName] {
        let dav = { (name: String) in PropertyName(Namespace.dav, name) }
        var names = [dav("resourcetype"), dav("current-user-principal"), dav("current-user-privilege-set"), dav("owner"),
                     dav("supported-report-set")]
        switch resource {
        case .root, .principals, .home:
            names += [dav("displayname"), PropertyName(Namespace.caldav, "calendar-home-set")]
        case .principal:
            names += [dav("displayname"), dav("principal-URL"), dav("principal-collection-set"), PropertyName(Namespace.caldav, "calendar-home-set")]
        case .collection:
            names += [dav("displayname"), dav("sync-token"), PropertyName(Namespace.calendarServer, "getctag"),
                      PropertyName(Namespace.caldav, "supported-calendar-component-set"), PropertyName(Namespace.caldav, "supported-calendar-data"),
                      PropertyName(Namespace.caldav, "max-resource-size"), PropertyName(Namespace.apple, "calendar-color"),
                      PropertyName(Namespace.apple, "calendar-order")]
        case .object:
            names += [dav("getetag"), dav("getcontenttype"), dav("getlastmodified")]
        }
        return names
    }

    /// The value (inner XML) of a property of a resource, or nil when it has none (404).
    /// `calendarData`: what the REPORT's calendar-data asks for (CALDAV:expand, partial
    /// retrieval), applied to calendar-data (never to getcontentlength, which stays the
    /// resource's own length).
    func value(of property: PropertyName, for resource: DAVResource, revision: () throws -> Int, data: Data? = nil,
               calendarData: CalendarDataRequest? = nil) throws -> String? {
        let href = { (path: String) in "<d:href>\(DAVXML.escape(path))</d:href>" }
        switch (property.namespace, property.name) {
        case (Namespace.dav, "current-user-principal"): return href(paths.principal)
        case (Namespace.dav, "principal-URL"): if case .principal = resource { return href(paths.principal) }
        case (Namespace.dav, "principal-collection-set"): return href("/dav/principals/")
        case (Namespace.caldav, "calendar-home-set"): return href(paths.home)
        case (Namespace.caldav, "calendar-user-address-set"):
            if case .principal = resource { return href(paths.principal) }
        case (Namespace.dav, "owner"): return href(paths.principal)
        case (Namespace.dav, "current-user-privilege-set"):
            return ["all", "read", "write", "write-properties", "write-content", "bind", "unbind", "read-current-user-privilege-set"]
                .map { "<d:privilege><d:\($0)/></d:privilege>" }.joined()
        case (Namespace.dav, "resourcetype"):
            switch resource {
            case .principal: return "<d:principal/><d:collection/>"
            case .collection: return "<c:calendar/><d:collection/>"
            case .object: return ""
            default: return "<d:collection/>"
            }
        case (Namespace.dav, "supported-report-set"):
            let reports: [String] = switch resource {
            case .collection: ["<c:calendar-multiget/>", "<c:calendar-query/>", "<d:sync-collection/>"]
            case .object: ["<c:calendar-multiget/>"]
            default: []
            }
            return reports.map { "<d:supported-report><d:report>\($0)</d:report></d:supported-report>" }.joined()
        case (Namespace.dav, "displayname"):
            switch resource {
            case .root: return "Slate"
            case .principals: return "Accounts"
            case .principal: return DAVXML.escape(paths.account)
            case .home: return "Lists"
            case .collection(let info): return DAVXML.escape(info.displayName)
            case .object: return nil
            }
        default: break
        }
        if case .collection(let info) = resource {
            switch (property.namespace, property.name) {
            case (Namespace.dav, "sync-token"): return DAVXML.escape(Self.syncToken(try revision()))
            case (Namespace.calendarServer, "getctag"): return "\"\(try revision())\""
            case (Namespace.caldav, "supported-calendar-component-set"): return "<c:comp name=\"VTODO\"/>"
            case (Namespace.caldav, "supported-calendar-data"): return "<c:calendar-data content-type=\"text/calendar\" version=\"2.0\"/>"
            case (Namespace.caldav, "max-resource-size"): return String(CalendarLimits.maximumResourceSize)
            case (Namespace.apple, "calendar-color"): return info.color
            case (Namespace.apple, "calendar-order"): return String(Int64(info.order.rounded()))
            default: return nil
            }
        }
        if case .object(_, let object) = resource {
            switch (property.namespace, property.name) {
            case (Namespace.dav, "getetag"), (Namespace.dav, "getcontenttype"): return Self.tagValue(of: property, etag: object.etag)
            case (Namespace.dav, "getlastmodified"): return Self.httpDate(object.task.modified)
            case (Namespace.dav, "getcontentlength"): return String(try (data ?? slate.calendarData(of: object)).count)
            case (Namespace.caldav, "calendar-data"):
                let bytes = try data ?? slate.calendarData(of: object)
                return DAVXML.escape(Slate.calendarText(calendarData.map { $0.applied(to: bytes, calendar: slate.calendar) } ?? bytes))
            default: return nil
            }
        }
        return nil
    }

    /// The object properties an entity tag alone answers: a PROPFIND Depth 1 asking for
    /// nothing else lists the collection by names and revisions (`Slate.calendarObjectTags(in:)`).
    static let tagProperties: Set<PropertyName> = [PropertyName(Namespace.dav, "getetag"), PropertyName(Namespace.dav, "getcontenttype"),
                                                   PropertyName(Namespace.dav, "resourcetype")]

    /// The value of one of `tagProperties` for an object whose entity tag is `etag`
    /// (`value(of:for:revision:data:calendarData:)` answers with it too).
    static func tagValue(of property: PropertyName, etag: String) -> String? {
        guard property.namespace == Namespace.dav else { return nil }
        switch property.name {
        case "getetag": return DAVXML.escape(etag)
        case "getcontenttype": return "text/calendar; charset=utf-8; component=VTODO"
        case "resourcetype": return ""
        default: return nil
        }
    }

    /// Adds a response per tag of `collection`'s objects with `names`, each one of
    /// `tagProperties`: from one `TagResponse` when it can stand for them (always, for
    /// today's properties), otherwise property by property.
    func add(tags: [CalendarObjectTag], names: [PropertyName], collection: String, to multiStatus: inout MultiStatus) {
        let found = { (etag: String) in names.map { ($0, Self.tagValue(of: $0, etag: etag) ?? "") } }
        let prefix = paths.collection(collection)
        guard let first = tags.first,
              let response = TagResponse(hrefPrefix: prefix, sample: (DAVPaths.encode(first.name), first.etag), found: found)
        else {
            return multiStatus.addEach(tags) { multiStatus, tag in
                multiStatus.add(href: prefix + DAVPaths.encode(tag.name), found: found(tag.etag), missing: [])
            }
        }
        multiStatus.addEach(tags) { multiStatus, tag in multiStatus.add(response, hrefEnding: DAVPaths.encode(tag.name), tag: tag.etag) }
    }

    /// Adds objects of one collection, their bytes read together when the properties ask
    /// for them (calendar-data, getcontentlength); `calendarData` as `value(of:for:revision:data:calendarData:)` says.
    func add(objects: [(CalendarCollectionInfo, CalendarObject, href: String)], names: [PropertyName]?,
             to multiStatus: inout MultiStatus, revision: () throws -> Int, calendarData: CalendarDataRequest? = nil) throws {
        if let responses, let names, CalendarResponseCache.keeps(names, calendarData: calendarData) {
            return try addKept(objects, names: names, cache: responses, to: &multiStatus, revision: revision)
        }
        let dataNames: Set<PropertyName> = [PropertyName(Namespace.caldav, "calendar-data"), PropertyName(Namespace.dav, "getcontentlength")]
        let wantsData = names?.contains(where: dataNames.contains) ?? false
        let data = wantsData ? try slate.calendarData(of: objects.map(\.1)) : []
        for (index, (info, object, href)) in objects.enumerated() {
            try add(.object(info, object), href: href, names: names, to: &multiStatus, revision: revision,
                    data: wantsData ? data[index] : nil, calendarData: calendarData)
        }
    }

    /// A sync token as a URI.
    static func syncToken(_ revision: Int) -> String { "urn:x-slate:sync:\(revision)" }

    /// A collection's sync token: `urn:x-slate:sync:REVISION`; for a first sync cut short
    /// by `DAV:limit`, `urn:x-slate:sync:REVISION:paged:THROUGH:NAME` (`listed` in place of
    /// `paged`: a token from before the listing's pages held removals, still read); for an incremental
    /// sync cut short inside revision REVISION + 1, `urn:x-slate:sync:REVISION:sent:NAME`
    /// (NAME percent-encoded).
    static func syncToken(_ token: CalendarSyncToken) -> String {
        var text = syncToken(token.revision)
        if let sent = token.sentName?.addingPercentEncoding(withAllowedCharacters: tokenNameCharacters) {
            text += ":sent:" + sent
        } else if let through = token.listedThrough {
            text += (token.removalsListed ? ":paged:" : ":listed:") + "\(through)"
            if let name = token.listedName?.addingPercentEncoding(withAllowedCharacters: tokenNameCharacters) { text += ":" + name }
        }
        return text
    }

    private static let tokenNameCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// What a sync token says, or nil for a token Slate did not make.
    static func position(ofSyncToken token: String) -> CalendarSyncToken? {
        let text = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("urn:x-slate:sync:") else { return nil }
        let parts = text.dropFirst("urn:x-slate:sync:".count).split(separator: ":", omittingEmptySubsequences: false)
        guard let revision = parts.first.flatMap({ Int($0) }) else { return nil }
        if parts.count == 1 { return CalendarSyncToken(revision: revision) }
        if parts.count == 3, parts[1] == "sent" {
            guard let name = parts[2].removingPercentEncoding, !name.isEmpty else { return nil }
            return CalendarSyncToken(revision: revision, sentName: name)
        }
        guard parts.count == 3 || parts.count == 4, parts[1] == "listed" || parts[1] == "paged", let through = Int(parts[2]) else { return nil }
        let paged = parts[1] == "paged"
        guard parts.count == 4 else { return CalendarSyncToken(revision: revision, listedThrough: through, removalsListed: paged) }
        guard let name = parts[3].removingPercentEncoding, !name.isEmpty else { return nil }
        return CalendarSyncToken(revision: revision, listedThrough: through, listedName: name, removalsListed: paged)
    }

    /// `Tue, 01 Dec 2026 05:10:57 GMT` (RFC 9110's IMF-fixdate).
    static func httpDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Adds one resource's answer for the properties asked for (`names` nil: allprop).
    func add(_ resource: DAVResource, href: String, names: [PropertyName]?, namesOnly: Bool = false,
             to multiStatus: inout MultiStatus, revision: () throws -> Int, data: Data? = nil,
             calendarData: CalendarDataRequest? = nil) throws {
        if namesOnly {
            multiStatus.add(href: href, found: propertyNames(of: resource).map { ($0, "") }, missing: [])
            return
        }
        var found: [(PropertyName, String)] = []
        var missing: [PropertyName] = []
        for name in names ?? propertyNames(of: resource) {
            if let value = try value(of: name, for: resource, revision: revision, data: data, calendarData: calendarData) { found.append((name, value)) } else { missing.append(name) }
        }
        multiStatus.add(href: href, found: found, missing: missing)
    }
}

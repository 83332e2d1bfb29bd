import Foundation
import SlateCore
import SlateHTTP

extension DAVContext {
    /// PUT of a task's resource, with `If-Match` / `If-None-Match: *` (412 when they fail).
    /// The ETag is sent when a GET returns exactly the bytes sent (RFC 4791 §5.3.4): always,
    /// except when the client sent back the override of an occurrence deleted in Slate.
    func put(_ target: DAVTarget) throws -> Response {
        guard case .object(let collectionName, let name) = target else {
            return Self.failure(.methodNotAllowed, nil, "PUT stores a task's resource (…/<list>/<name>.ics), not a collection.",
                                headers: ["Allow": DAVHandler.allow])
        }
        if !Self.isCalendarType(request) {
            let type = request.headers["Content-Type"]?.lowercased() ?? ""
            return Self.failure(.unsupportedMediaType, PropertyName(Namespace.caldav, "supported-calendar-data"),
                                "A task's resource is text/calendar (iCalendar); got \(type).")
        }
        let info = try collection(collectionName)
        let mustCreate = request.headers["If-None-Match"]?.trimmingHTTPWhitespace == "*"
        var expected: Int?
        if let match = request.headers["If-Match"]?.trimmingHTTPWhitespace, match != "*" {
            guard let revision = Self.revision(ofETag: match) else {
                throw CalendarObjectError.preconditionFailed("If-Match \(match) is not an entity tag of this resource.")
            }
            expected = revision
        } else if request.headers["If-Match"] != nil, try slate.calendarObject(named: name, in: info.id) == nil {
            throw CalendarObjectError.preconditionFailed("If-Match: * but the resource does not exist.")
        }
        let result = try slate.storeCalendarObject(upload ?? CalendarUpload(request.body, calendar: slate.calendar), named: name,
                                                   in: info.id, mustCreate: mustCreate, expectedRevision: expected, history: syncHistory)
        return Response(status: result.created ? .created : .noContent, headers: result.isServedAsSent ? ["ETag": result.object.etag] : [:])
    }

    /// True when `request`'s body may be a calendar object: text/calendar, or no type or a
    /// generic one, as some clients send.
    static func isCalendarType(_ request: Request) -> Bool {
        guard let type = request.headers["Content-Type"]?.lowercased() else { return true }
        return type.hasPrefix("text/calendar") || type.hasPrefix("application/octet-stream")
    }

    /// True for a PUT whose body `put` reads as a calendar object (`CalendarUpload`).
    static func isCalendarUpload(_ request: Request) -> Bool {
        request.method == .put && isCalendarType(request)
    }

    /// DELETE of a task's resource (with its subtasks) or of a whole list.
    func delete(_ target: DAVTarget) throws -> Response {
        switch try resolve(target) {
        case .object(_, let object):
            var expected: Int?
            if let match = request.headers["If-Match"]?.trimmingHTTPWhitespace, match != "*" {
                guard let revision = Self.revision(ofETag: match) else {
                    throw CalendarObjectError.preconditionFailed("If-Match \(match) is not an entity tag of this resource.")
                }
                expected = revision
            }
            try slate.deleteCalendarObject(object, ifMatch: expected, history: syncHistory)
        case .collection(let info):
            try slate.deleteCalendarCollection(info.id)
        default:
            throw CalendarObjectError.forbidden("Only lists and tasks can be deleted.")
        }
        return Response(status: .noContent)
    }

    /// MKCALENDAR (RFC 4791 §5.3.1) and Extended MKCOL (RFC 5689): a new list.
    func makeCollection(_ target: DAVTarget) throws -> Response {
        guard case .collection(let name) = target else {
            throw CalendarObjectError.forbidden("New lists are made in the calendar home (\(paths.home)<name>/).")
        }
        let isMKCOL = request.method.rawValue == "MKCOL"
        var set: [XMLElement] = []
        if let body = try xmlBody() {
            let expected = isMKCOL ? PropertyName(Namespace.dav, "mkcol") : PropertyName(Namespace.caldav, "mkcalendar")
            guard PropertyName(body) == expected else {
                return Self.failure(.badRequest, nil, "The body must be a \(expected.name) element; got \(body.name).")
            }
            set = body.children.filter { $0.is(Namespace.dav, "set") }.flatMap { $0.child(Namespace.dav, "prop")?.children ?? [] }
        }
        if isMKCOL {
            let type = set.first { $0.is(Namespace.dav, "resourcetype") }
            guard let type, type.child(Namespace.caldav, "calendar") != nil else {
                throw CalendarObjectError.forbidden("Only calendar collections can be made here: MKCOL needs a resourcetype with C:calendar.")
            }
        }
        if let components = set.first(where: { $0.is(Namespace.caldav, "supported-calendar-component-set") }) {
            let names = components.children.compactMap { $0.attributes["name"]?.uppercased() }
            guard names.contains("VTODO") else {
                return Self.failure(.forbidden, PropertyName(Namespace.caldav, "supported-calendar-component"),
                                    "Slate's collections hold tasks: the component set must include VTODO; got \(names.joined(separator: ", ")).")
            }
        }
        if try slate.calendarCollection(named: name) != nil {
            return Self.failure(.methodNotAllowed, PropertyName(Namespace.dav, "resource-must-be-null"), "A collection named \(name) exists already.")
        }
        let properties = try collectionProperties(set)
        _ = try slate.createCalendarCollection(named: name, displayName: properties.displayName, color: properties.color, order: properties.order)
        return Response(status: .created, headers: ["Content-Length": "0"])
    }

    /// PROPPATCH of a list's displayname, calendar-color and calendar-order.
    func proppatch(_ target: DAVTarget) throws -> Response {
        guard case .collection(let info) = try resolve(target) else {
            throw CalendarObjectError.forbidden("Only a list's properties (displayname, calendar-color, calendar-order) can be changed.")
        }
        guard let body = try xmlBody(), body.is(Namespace.dav, "propertyupdate") else {
            return Self.failure(.badRequest, nil, "A PROPPATCH body must be a DAV:propertyupdate element.")
        }
        var set: [XMLElement] = []
        var removed: [XMLElement] = []
        for instruction in body.children {
            let props = instruction.child(Namespace.dav, "prop")?.children ?? []
            if instruction.is(Namespace.dav, "set") { set += props } else if instruction.is(Namespace.dav, "remove") { removed += props }
        }
        let writable: Set<PropertyName> = [PropertyName(Namespace.dav, "displayname"), PropertyName(Namespace.apple, "calendar-color"),
                                           PropertyName(Namespace.apple, "calendar-order")]
        let refused = (set + removed).map(PropertyName.init).filter { !writable.contains($0) }
        var multiStatus = MultiStatus()
        if !refused.isEmpty || !removed.isEmpty {
            // All or nothing (RFC 4918 §9.2): the rest fail with 424.
            let failed = (set + removed).map(PropertyName.init)
            let forbidden = refused + removed.map(PropertyName.init).filter { writable.contains($0) }
            multiStatus.add(href: request.path, found: [], missing: forbidden, missingStatus: 403)
            let dependent = failed.filter { !forbidden.contains($0) }
            if !dependent.isEmpty { multiStatus.add(href: request.path, found: [], missing: dependent, missingStatus: 424) }
            return Self.multiStatus(multiStatus.finished())
        }
        let properties = try collectionProperties(set)
        try slate.updateCalendarCollection(info.id, displayName: properties.displayName, color: properties.color, order: properties.order)
        multiStatus.add(href: request.path, found: set.map { (PropertyName($0), "") }, missing: [])
        return Self.multiStatus(multiStatus.finished())
    }

    /// CSS's basic colour names (CSS Color Level 3 §4.1) and a few common ones, as some
    /// clients write calendar-color; stored as the hex value.
    static let colorNames: [String: String] = [
        "black": "#000000", "silver": "#C0C0C0", "gray": "#808080", "grey": "#808080", "white": "#FFFFFF", "maroon": "#800000",
        "red": "#FF0000", "purple": "#800080", "fuchsia": "#FF00FF", "magenta": "#FF00FF", "green": "#008000", "lime": "#00FF00",
        "olive": "#808000", "yellow": "#FFFF00", "navy": "#000080", "blue": "#0000FF", "teal": "#008080", "aqua": "#00FFFF",
        "cyan": "#00FFFF", "orange": "#FFA500", "pink": "#FFC0CB", "brown": "#A52A2A", "gold": "#FFD700", "indigo": "#4B0082",
        "violet": "#EE82EE", "coral": "#FF7F50", "salmon": "#FA8072", "turquoise": "#40E0D0",
    ]

    /// The list fields among properties being set, checked.
    private func collectionProperties(_ set: [XMLElement]) throws -> (displayName: String?, color: String?, order: Double?) {
        var result: (displayName: String?, color: String?, order: Double?) = (nil, nil, nil)
        for property in set {
            let text = property.text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch (property.namespace, property.name) {
            case (Namespace.dav, "displayname"): result.displayName = text
            case (Namespace.apple, "calendar-color"):
                if let named = Self.colorNames[text.lowercased()] {
                    result.color = named
                    continue
                }
                let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
                guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else {
                    throw CalendarObjectError.forbidden("calendar-color must be #RRGGBB, #RRGGBBAA or a CSS colour name such as blue; got '\(text.prefix(40))'.")
                }
                result.color = "#" + hex.prefix(6)
            case (Namespace.apple, "calendar-order"):
                guard let order = Double(text), order.isFinite else {
                    throw CalendarObjectError.forbidden("calendar-order must be a number; got '\(text.prefix(40))'.")
                }
                result.order = order
            default: break
            }
        }
        return result
    }
}

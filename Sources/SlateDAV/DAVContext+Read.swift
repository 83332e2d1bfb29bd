import Foundation
import SlateCore
import SlateHTTP

extension DAVContext {
    /// PROPFIND with Depth 0 or 1 (Depth: infinity is refused, RFC 4918 §9.1).
    func propfind(_ target: DAVTarget) throws -> Response {
        let depth = request.headers["Depth"]?.trimmingHTTPWhitespace.lowercased() ?? "1"
        guard depth != "infinity" else {
            return Self.failure(.forbidden, PropertyName(Namespace.dav, "propfind-finite-depth"),
                                "Depth: infinity is not served; ask with Depth: 0 or 1.")
        }
        guard depth == "0" || depth == "1" else {
            return Self.failure(.badRequest, nil, "The Depth header must be 0, 1 or infinity; got '\(depth)'.")
        }
        var names: [PropertyName]?
        var namesOnly = false
        if let body = try xmlBody() {
            guard body.is(Namespace.dav, "propfind") else {
                return Self.failure(.badRequest, nil, "A PROPFIND body must be a DAV:propfind element; got \(body.name).")
            }
            if let prop = body.child(Namespace.dav, "prop") {
                names = prop.children.map(PropertyName.init)
            } else if body.child(Namespace.dav, "propname") != nil {
                namesOnly = true
            }
        }
        let resource = try resolve(target)
        var multiStatus = MultiStatus()
        try add(resource, href: request.path, names: names, namesOnly: namesOnly, to: &multiStatus, revision: slate.revision)
        if depth == "1" {
            switch resource {
            case .root:
                try add(.principals, href: "/dav/principals/", names: names, namesOnly: namesOnly, to: &multiStatus, revision: slate.revision)
                try add(.home, href: paths.home, names: names, namesOnly: namesOnly, to: &multiStatus, revision: slate.revision)
            case .principals:
                try add(.principal, href: paths.principal, names: names, namesOnly: namesOnly, to: &multiStatus, revision: slate.revision)
            case .home:
                for info in try slate.calendarCollections() {
                    try add(.collection(info), href: paths.collection(info.name), names: names, namesOnly: namesOnly, to: &multiStatus, revision: slate.revision)
                }
            case .collection(let info) where !namesOnly && names?.allSatisfy(Self.tagProperties.contains) == true:
                // ETags and the like: names and revisions, no task read.
                add(tags: try objectTags(in: info), names: names ?? [], collection: info.name, to: &multiStatus)
            case .collection(let info):
                let href = paths.objects(in: info.name)
                for object in try slate.calendarObjects(in: info.id) {
                    try add(.object(info, object), href: href(object.name), names: names, namesOnly: namesOnly,
                            to: &multiStatus, revision: slate.revision)
                }
            case .principal, .object:
                break
            }
        }
        return Self.multiStatus(multiStatus.finished())
    }

    /// GET and HEAD of a task's resource: its iCalendar text.
    func get(_ target: DAVTarget) throws -> Response {
        let resource = try resolve(target)
        guard case .object(_, let object) = resource else {
            return Response.text("This is a CalDAV collection; open it with a calendar or task app.\n")
        }
        let data = try slate.calendarData(of: object)
        if let match = request.headers["If-None-Match"], match.split(separator: ",").contains(where: {
            $0.trimmingHTTPWhitespace == object.etag || $0.trimmingHTTPWhitespace == "*"
        }) {
            return Response(status: .notModified, headers: ["ETag": object.etag])
        }
        return Response(status: .ok, headers: [
            "Content-Type": "text/calendar; charset=utf-8; component=VTODO", "ETag": object.etag,
            "Last-Modified": Self.httpDate(object.task.modified),
        ], body: .data(data))
    }
}

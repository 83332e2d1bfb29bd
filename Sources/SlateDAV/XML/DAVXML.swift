import Foundation

/// The XML namespaces of WebDAV, CalDAV and the extensions clients ask for.
enum Namespace {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"
    static let apple = "http://apple.com/ns/ical/"

    /// The prefixes the answers declare once, on their root element.
    static let prefixes: [(namespace: String, prefix: String)] = [(dav, "d"), (caldav, "c"), (calendarServer, "cs"), (apple, "a")]

    static func prefix(of namespace: String) -> String? { prefixes.first { $0.namespace == namespace }?.prefix }

    /// `xmlns:d="DAV:" …` for a root element.
    static var declarations: String {
        prefixes.map { " xmlns:\($0.prefix)=\"\($0.namespace)\"" }.joined()
    }
}

/// A property's name: its namespace and local name.
struct PropertyName: Hashable, Sendable {
    let namespace: String
    let name: String

    init(_ namespace: String, _ name: String) {
        self.namespace = namespace
        self.name = name
    }

    init(_ element: XMLElement) { self.init(element.namespace, element.name) }

    /// An element of this name around `inner` (already XML); empty when `inner` is empty.
    func element(_ inner: String) -> String {
        if let prefix = Namespace.prefix(of: namespace) {
            return inner.isEmpty ? "<\(prefix):\(name)/>" : "<\(prefix):\(name)>\(inner)</\(prefix):\(name)>"
        }
        let declaration = "x:\(DAVXML.escape(name)) xmlns:x=\"\(DAVXML.escape(namespace))\""
        return inner.isEmpty ? "<\(declaration)/>" : "<\(declaration)>\(inner)</x:\(DAVXML.escape(name))>"
    }
}

/// Writing the XML of WebDAV answers.
enum DAVXML {
    /// Text escaped for element content and attribute values (CR as `&#13;`, so that a
    /// calendar's CRLF line ends survive XML's line-end normalisation).
    static func escape(_ text: String) -> String {
        let special: (UInt8) -> Bool = { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x0D }
        guard text.utf8.contains(where: special) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 16)
        for byte in text.utf8 {
            switch byte {
            case 0x26: bytes += Entity.amp
            case 0x3C: bytes += Entity.lt
            case 0x3E: bytes += Entity.gt
            case 0x22: bytes += Entity.quot
            case 0x0D: bytes += Entity.cr
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private enum Entity {
        static let amp = Array("&amp;".utf8), lt = Array("&lt;".utf8), gt = Array("&gt;".utf8)
        static let quot = Array("&quot;".utf8), cr = Array("&#13;".utf8)
    }

    /// `HTTP/1.1 404 Not Found`.
    static func status(_ code: Int) -> String {
        let reason = switch code {
        case 200: "OK"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 424: "Failed Dependency"
        case 507: "Insufficient Storage"
        default: "Error"
        }
        return "HTTP/1.1 \(code) \(reason)"
    }

    /// An `<d:error>` body with one precondition element and a sentence for people.
    static func error(_ condition: PropertyName, _ message: String) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:error\(Namespace.declarations)>\(condition.element(""))"
            + "<d:responsedescription>\(escape(message))</d:responsedescription></d:error>\n"
    }
}

/// A 207 Multi-Status body, built response by response.
struct MultiStatus {
    private var body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:multistatus\(Namespace.declarations)>"

    /// A response with properties found (200) and not (404 or another status).
    mutating func add(href: String, found: [(PropertyName, String)], missing: [PropertyName], missingStatus: Int = 404) {
        body += "<d:response><d:href>\(DAVXML.escape(href))</d:href>"
        if !found.isEmpty {
            body += "<d:propstat><d:prop>"
            for (name, value) in found { body += name.element(value) }
            body += "</d:prop><d:status>\(DAVXML.status(200))</d:status></d:propstat>"
        }
        if !missing.isEmpty {
            body += "<d:propstat><d:prop>"
            for name in missing { body += name.element("") }
            body += "</d:prop><d:status>\(DAVXML.status(missingStatus))</d:status></d:propstat>"
        }
        body += "</d:response>"
    }

    /// A response with a status only (a resource gone, a truncated listing).
    mutating func add(href: String, status: Int, error: PropertyName? = nil) {
        body += "<d:response><d:href>\(DAVXML.escape(href))</d:href><d:status>\(DAVXML.status(status))</d:status>"
        if let error { body += "<d:error>\(error.element(""))</d:error>" }
        body += "</d:response>"
    }

    /// Ends the body, with a sync token if given.
    func finished(syncToken: String? = nil) -> Data {
        var text = body
        if let syncToken { text += "<d:sync-token>\(DAVXML.escape(syncToken))</d:sync-token>" }
        return Data((text + "</d:multistatus>\n").utf8)
    }
}

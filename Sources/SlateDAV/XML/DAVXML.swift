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
        escape(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` escaped as `escape(_:)` does, appended to `bytes`: the runs between special
    /// bytes are copied whole (byte by byte, a calendar-query of 10,000 objects spent 252 M
    /// instructions here).
    static func escape(_ text: String, into bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { source in
            var start = 0
            for index in source.indices {
                let entity: [UInt8]
                switch source[index] {
                case 0x26: entity = Entity.amp
                case 0x3C: entity = Entity.lt
                case 0x3E: entity = Entity.gt
                case 0x22: entity = Entity.quot
                case 0x0D: entity = Entity.cr
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
                bytes.append(contentsOf: entity)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...]))
        }
    }

    private enum Entity {
        static let amp = Array("&amp;".utf8), lt = Array("&lt;".utf8), gt = Array("&gt;".utf8)
        static let quot = Array("&quot;".utf8), cr = Array("&#13;".utf8)
    }

    /// `HTTP/1.1 404 Not Found`.
    static func status(_ code: Int) -> String {
        // The two of every listing, written once.
        if code == 200 { return "HTTP/1.1 200 OK" }
        if code == 404 { return "HTTP/1.1 404 Not Found" }
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

    /// An `<d:error>` body with its precondition element (none when the error has no RFC
    /// name, such as a 404) and a sentence for people.
    static func error(_ condition: PropertyName?, _ message: String) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:error\(Namespace.declarations)>\(condition?.element("") ?? "")"
            + "<d:responsedescription>\(escape(message))</d:responsedescription></d:error>\n"
    }
}

extension String {
    /// The text without leading and trailing white space and newlines, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it (a no-break space pasted
    /// around an href goes too), without Foundation's work (25,000 instructions a call)
    /// unless an end is beyond ASCII: the text itself when both ends are visible ASCII, as
    /// an href's are; else its ASCII white space cut on the bytes first.
    var trimmedWhitespace: String {
        guard let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) else {
            let trimmed = trimmingASCII { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C }
            guard let first = trimmed.utf8.first, let last = trimmed.utf8.last, first >= 0x80 || last >= 0x80 else { return trimmed }
            return trimmed.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return self
    }
}

import Foundation

/// A 207 Multi-Status body, built response by response, as UTF-8 bytes: each piece is
/// copied once into the body (a PROPFIND of 10,000 objects spent 134 M instructions on the
/// `String` interpolations and appends this replaced).
struct MultiStatus {
    private var body: [UInt8] = []

    init() {
        body.reserveCapacity(16_384)
        append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:multistatus")
        append(Namespace.declarations)
        append(">")
    }

    /// Responses to be added to an answer whole (`add(responses:)`): no prologue.
    static func responses() -> MultiStatus {
        var fragment = MultiStatus()
        fragment.body.removeAll(keepingCapacity: true)
        return fragment
    }

    /// The bytes written so far (of `responses()`: its responses).
    var bytes: [UInt8] { body }

    /// Responses written before, as they are.
    mutating func add(responses bytes: [UInt8]) { body.append(contentsOf: bytes) }

    /// A response with properties found (200) and not (404 or another status).
    mutating func add(href: String, found: [(PropertyName, String)], missing: [PropertyName], missingStatus: Int = 404) {
        open(href: href)
        if !found.isEmpty {
            append("<d:propstat><d:prop>")
            for (name, value) in found { append(name, value) }
            append("</d:prop><d:status>")
            append(DAVXML.status(200))
            append("</d:status></d:propstat>")
        }
        if !missing.isEmpty {
            append("<d:propstat><d:prop>")
            for name in missing { append(name, "") }
            append("</d:prop><d:status>")
            append(DAVXML.status(missingStatus))
            append("</d:status></d:propstat>")
        }
        append("</d:response>")
    }

    /// A response with a status only (a resource gone, a truncated listing).
    mutating func add(href: String, status: Int, error: PropertyName? = nil) {
        open(href: href)
        append("<d:status>")
        append(DAVXML.status(status))
        append("</d:status>")
        if let error {
            append("<d:error>")
            append(error, "")
            append("</d:error>")
        }
        append("</d:response>")
    }

    /// Ends the body, with a sync token if given. Consuming: the end is appended in place,
    /// not to a copy of a body of megabytes.
    consuming func finished(syncToken: String? = nil) -> Data {
        if let syncToken {
            append("<d:sync-token>")
            DAVXML.escape(syncToken, into: &body)
            append("</d:sync-token>")
        }
        append("</d:multistatus>\n")
        return Data(body)
    }

    private mutating func open(href: String) {
        append("<d:response><d:href>")
        DAVXML.escape(href, into: &body)
        append("</d:href>")
    }

    private mutating func append(_ text: String) { body.append(contentsOf: text.utf8) }

    /// `name`'s element around `inner` (already XML), as `PropertyName.element(_:)` writes it.
    private mutating func append(_ name: PropertyName, _ inner: String) {
        guard let prefix = Namespace.prefix(of: name.namespace) else { return append(name.element(inner)) }
        append("<")
        append(prefix)
        append(":")
        append(name.name)
        guard !inner.isEmpty else { return append("/>") }
        append(">")
        append(inner)
        append("</")
        append(prefix)
        append(":")
        append(name.name)
        append(">")
    }
}

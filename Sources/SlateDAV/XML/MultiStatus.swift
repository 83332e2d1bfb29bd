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

    /// Responses written before, as they are, the body grown once for all of them.
    mutating func add(responses list: [[UInt8]]) {
        body.reserveCapacity(body.count + list.reduce(0) { $0 + $1.count } + 256)
        for bytes in list { body.append(contentsOf: bytes) }
    }

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

    /// A response with properties found whose values hold one text (an entity tag) and
    /// nothing else that varies, written from bytes made once (`TagResponse`): the same
    /// bytes as `add(href:found:missing:)` with the href `response`'s prefix followed by
    /// `hrefEnding`, and `response`'s properties for `tag`.
    mutating func add(_ response: TagResponse, hrefEnding: String, tag: String) {
        // An empty value is written as an empty element (`<d:getetag/>`), which no piece holds.
        guard !tag.isEmpty else {
            return add(href: response.hrefPrefix + hrefEnding, found: response.found(tag), missing: [])
        }
        body.append(contentsOf: response.opening)
        DAVXML.escape(hrefEnding, into: &body)
        body.append(contentsOf: response.pieces[0])
        for piece in response.pieces.dropFirst() {
            DAVXML.escape(tag, into: &body)
            body.append(contentsOf: piece)
        }
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

    /// Adds one response per item with `add`, the body grown once for all of them: after
    /// the first, room for the rest at its size (a listing of 2,000 objects otherwise spent a
    /// tenth of its time growing the body and faulting in its new pages).
    mutating func addEach<Items: Collection>(_ items: Items, _ add: (inout MultiStatus, Items.Element) throws -> Void) rethrows {
        var remaining = items.count
        for item in items {
            let start = body.count
            try add(&self, item)
            remaining -= 1
            if remaining > 0, remaining + 1 == items.count {
                body.reserveCapacity(body.count + (body.count - start) * remaining * 9 / 8)
            }
        }
    }

    /// Ends the body, with a sync token if given. Mutating, so that the end is appended in
    /// place: a `consuming` method was handed a shared buffer and copied a body of megabytes.
    mutating func finished(syncToken: String? = nil) -> Data {
        if let syncToken {
            append("<d:sync-token>")
            DAVXML.escape(syncToken, into: &body)
            append("</d:sync-token>")
        }
        append("</d:multistatus>\n")
        return Self.data(taking: &body)
    }

    /// From this size the body becomes the answer's `Data` in place rather than copied (the
    /// HTTP bridge hands a body this large to the library in place too).
    static let sharedBytes = 64 << 10

    /// `body` as `Data`, without a copy when it is large: the `Data` reads the array's own
    /// storage, which its deallocator keeps alive and which nothing mutates again (`body`
    /// is emptied). A 10,000-object calendar-query is 6 MB.
    private static func data(taking body: inout [UInt8]) -> Data {
        guard body.count >= sharedBytes else { return Data(body) }
        let kept = KeptBytes(body)
        body = []
        return kept.bytes.withUnsafeBytes { raw in
            Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress!), count: raw.count,
                 deallocator: .custom { _, _ in withExtendedLifetime(kept) {} })
        }
    }

    /// The bytes of a finished body, owned by the `Data` made over them.
    private final class KeptBytes: Sendable {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    private mutating func open(href: String) {
        body.append(contentsOf: Self.opening)
        DAVXML.escape(href, into: &body)
        body.append(contentsOf: Self.hrefEnd)
    }

    fileprivate static let opening = Array("<d:response><d:href>".utf8)
    private static let hrefEnd = Array("</d:href>".utf8)

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

/// A listing's response when all that varies from one response to the next is the end of
/// its href and an entity tag, which each property's value holds escaped, as is, or not at
/// all (DAV:getetag, a content type, an empty resource type). Written once per listing: a
/// PROPFIND of 10,000 ETags spent 40% of its time on the fifteen appends of each response.
struct TagResponse {
    /// The href's common part, as given.
    fileprivate let hrefPrefix: String
    /// `<d:response><d:href>` and the escaped common part of the href.
    fileprivate let opening: [UInt8]
    /// The bytes after the href, split where the escaped tag goes.
    fileprivate let pieces: [[UInt8]]
    /// The properties for a tag, for what the pieces cannot write.
    fileprivate let found: (String) -> [(PropertyName, String)]

    /// Responses whose hrefs start with `hrefPrefix`, with the properties `found` gives for
    /// an object's tag. Nil when the bytes written from the pieces would differ from
    /// `add(href:found:missing:)`'s for the sample href ending and tag (a value that
    /// transforms its tag in another way than escaping it).
    init?(hrefPrefix: String, sample: (hrefEnding: String, tag: String), found: @escaping (String) -> [(PropertyName, String)]) {
        self.hrefPrefix = hrefPrefix
        self.found = found
        var opening = MultiStatus.opening
        DAVXML.escape(hrefPrefix, into: &opening)
        self.opening = opening
        // A control character: never in the fixed XML or a property name, kept by escaping.
        let marker: UInt8 = 0x01
        var template = MultiStatus.responses()
        template.add(href: "", found: found(String(UnicodeScalar(marker))), missing: [])
        guard template.bytes.starts(with: MultiStatus.opening) else { return nil }
        pieces = template.bytes.dropFirst(MultiStatus.opening.count).split(separator: marker, omittingEmptySubsequences: false).map(Array.init)
        var expected = MultiStatus.responses()
        expected.add(href: hrefPrefix + sample.hrefEnding, found: found(sample.tag), missing: [])
        var written = MultiStatus.responses()
        written.add(self, hrefEnding: sample.hrefEnding, tag: sample.tag)
        guard written.bytes == expected.bytes else { return nil }
    }
}

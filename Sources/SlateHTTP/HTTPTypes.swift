import Foundation

/// An HTTP method. Any token is allowed (CalDAV needs PROPFIND, REPORT, MKCALENDAR).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"
}

/// Header fields, looked up without regard to case, keeping the order they came in.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    private var fields: [(name: String, value: String)] = []

    public init() {}
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        get { fields.first { Self.sameName($0.name, name) }?.value }
        set {
            fields.removeAll { Self.sameName($0.name, name) }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Field names are ASCII tokens: compare them byte by byte, folding only A–Z. (Foundation's
    /// `caseInsensitiveCompare` is locale-aware and showed up in the server's profile.)
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // On the bytes: walking two `UTF8View` iterators cost more than the lookup it served.
        // A native or short string lends its bytes as it is (copying it to call `withUTF8`
        // cost every request a dozen retains); a bridged one is made contiguous first.
        if let same = lhs.utf8.withContiguousStorageIfAvailable({ left in
            rhs.utf8.withContiguousStorageIfAvailable { right in equalIgnoringASCIICase(left, right) }
        }), let same {
            return same
        }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in rhs.withUTF8 { right in equalIgnoringASCIICase(left, right) } }
    }

    /// True when two byte runs of one length differ in ASCII letters' case at most.
    private static func equalIgnoringASCIICase(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        return left.count == right.count && (0..<left.count).allSatisfy { left[$0] == right[$0] || lowercased(left[$0]) == lowercased(right[$0]) }
    }

    /// Adds a field, keeping existing ones of the same name (Set-Cookie).
    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.map { "\($0.name.lowercased()):\($0.value)" } == rhs.fields.map { "\($0.name.lowercased()):\($0.value)" }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields { hasher.combine(field.name.lowercased()); hasher.combine(field.value) }
    }
}

/// An HTTP status code with its reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int
    public let reason: String
    public init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }
    public var description: String { "\(code) \(reason)" }

    public static let ok = HTTPStatus(200, "OK")
    public static let created = HTTPStatus(201, "Created")
    public static let noContent = HTTPStatus(204, "No Content")
    /// WebDAV and CalDAV answers to PROPFIND and REPORT.
    public static let multiStatus = HTTPStatus(207, "Multi-Status")
    public static let movedPermanently = HTTPStatus(301, "Moved Permanently")
    public static let found = HTTPStatus(302, "Found")
    public static let notModified = HTTPStatus(304, "Not Modified")
    public static let badRequest = HTTPStatus(400, "Bad Request")
    public static let unauthorized = HTTPStatus(401, "Unauthorized")
    public static let forbidden = HTTPStatus(403, "Forbidden")
    public static let notFound = HTTPStatus(404, "Not Found")
    public static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    public static let conflict = HTTPStatus(409, "Conflict")
    public static let preconditionFailed = HTTPStatus(412, "Precondition Failed")
    public static let contentTooLarge = HTTPStatus(413, "Content Too Large")
    public static let unsupportedMediaType = HTTPStatus(415, "Unsupported Media Type")
    public static let unprocessableContent = HTTPStatus(422, "Unprocessable Content")
    public static let preconditionRequired = HTTPStatus(428, "Precondition Required")
    public static let tooManyRequests = HTTPStatus(429, "Too Many Requests")
    /// What libmicrohttpd answers when the request head exceeds the header limit.
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431, "Request Header Fields Too Large")
    public static let internalServerError = HTTPStatus(500, "Internal Server Error")
    public static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")
}

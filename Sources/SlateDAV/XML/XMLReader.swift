import Foundation

/// An element of a WebDAV request body, with namespaces resolved.
struct XMLElement: Sendable {
    var namespace: String
    var name: String
    /// Attributes by local name (DAV's bodies use unprefixed attributes).
    var attributes: [String: String] = [:]
    var children: [XMLElement] = []
    /// The text directly inside, entity references decoded.
    var text = ""

    /// The first child with this namespace and name.
    func child(_ namespace: String, _ name: String) -> XMLElement? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }
}

/// Why a body was refused.
struct XMLReadError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A small, strict XML reader for WebDAV and CalDAV request bodies.
///
/// It reads elements, attributes, namespaces, text, CDATA, comments and the XML
/// declaration. It refuses document type declarations (and so every custom entity:
/// no XXE, no "billion laughs") and any entity reference other than the five predefined
/// ones and character references. Depth, element count and size are bounded.
struct XMLReader {
    static let maximumDepth = 32
    static let maximumElements = 20_000
    static let maximumSize = 1 << 20
    /// Attributes on one element, and namespace declarations in the whole body: each
    /// element's scope is a copy of its parent's once it declares one, so without a bound a
    /// megabyte of declarations costs seconds (on the writer thread, for PROPPATCH).
    static let maximumAttributes = 64
    static let maximumNamespaces = 256

    private let bytes: [UInt8]
    private var index = 0
    private var elements = 0
    private var namespaces = 0
    /// Scopes made so far: each element that declares a namespace opens a new one.
    private var scopes = 0
    /// The last name resolved: a body names the same element again and again (a multiget's
    /// `d:href`), and the same bytes in the same scope resolve the same.
    private var lastName: (start: Int, count: Int, scope: Int, namespace: String, name: String) = (0, 0, -1, "", "")

    private init(_ data: Data) { bytes = Array(data) }

    /// The root element of `data`.
    static func parse(_ data: Data) throws -> XMLElement {
        guard data.count <= maximumSize else { throw XMLReadError("The XML body is larger than \(maximumSize) bytes.") }
        var reader = XMLReader(data)
        // Checked once, whole: every string is then cut at ASCII bytes ('<', '>', '=',
        // quotes, white space), which never fall inside a character, so none needs its own
        // check (each made its own through a generic initialiser: a twentieth of a multiget).
        guard reader.isUTF8 else { throw XMLReadError("The XML is not UTF-8.") }
        return try reader.document()
    }

    /// True when the whole body is UTF-8.
    private var isUTF8: Bool { (try? UTF8Span(validating: bytes.span)) != nil }

    private mutating func document() throws -> XMLElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        try skipMisc()
        guard peek("<") else { throw XMLReadError("The body is not XML: expected '<' at byte \(index).") }
        let root = try element(depth: 1, scope: ["xml": "http://www.w3.org/XML/1998/namespace"], scopeID: 0)
        try skipMisc()
        guard index == bytes.count else { throw XMLReadError("Unexpected content after the root element at byte \(index).") }
        return root
    }

    /// White space, comments, processing instructions; refuses DOCTYPE.
    private mutating func skipMisc() throws {
        while true {
            skipSpace()
            if peek("<?") {
                try skip(past: "?>")
            } else if peek("<!--") {
                try skip(past: "-->")
            } else if peek("<!") {
                throw XMLReadError("Document type declarations and entities are not accepted.")
            } else {
                return
            }
        }
    }

    private mutating func element(depth: Int, scope inherited: [String: String], scopeID inheritedID: Int) throws -> XMLElement {
        guard depth <= Self.maximumDepth else { throw XMLReadError("The XML is nested deeper than \(Self.maximumDepth) levels.") }
        elements += 1
        guard elements <= Self.maximumElements else { throw XMLReadError("The XML has more than \(Self.maximumElements) elements.") }
        index += 1   // "<"
        let (nameStart, nameEnd) = try nameBounds()
        // The name as written, for messages only: no string is made for it otherwise.
        var qualified: String { text(nameStart, nameEnd) }
        var rawAttributes: [(String, String)] = []
        var selfClosing = false
        while true {
            skipSpace()
            if peek("/>") { index += 2; selfClosing = true; break }
            if peek(">") { index += 1; break }
            guard rawAttributes.count < Self.maximumAttributes else {
                throw XMLReadError("Element <\(qualified)> has more than \(Self.maximumAttributes) attributes.")
            }
            let attribute = try name()
            skipSpace()
            guard peek("=") else { throw XMLReadError("Attribute \(attribute) has no value.") }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 else {
                throw XMLReadError("Attribute \(attribute) must be quoted.")
            }
            let quote = bytes[index]
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote {
                if bytes[index] == UInt8(ascii: "<") { throw XMLReadError("'<' inside attribute \(attribute).") }
                index += 1
            }
            guard index < bytes.count else { throw XMLReadError("Attribute \(attribute) is not closed.") }
            rawAttributes.append((attribute, try decodeText(start, index)))
            index += 1
        }
        var scope = inherited
        var scopeID = inheritedID
        var attributes: [String: String] = [:]
        for (name, value) in rawAttributes {
            if name == "xmlns" || name.hasPrefix("xmlns:") {
                namespaces += 1
                guard namespaces <= Self.maximumNamespaces else {
                    throw XMLReadError("The XML declares more than \(Self.maximumNamespaces) namespaces.")
                }
                scope[name == "xmlns" ? "" : String(name.dropFirst(6))] = value
                // A declaration opens a scope of its own (one per element, however many it makes).
                if scopeID == inheritedID {
                    scopes += 1
                    scopeID = scopes
                }
            } else {
                attributes[String(name.split(separator: ":").last ?? "")] = value
            }
        }
        var element = try resolve(nameStart, nameEnd, scope: scope, scopeID: scopeID)
        element.attributes = attributes
        if selfClosing { return element }
        while true {
            guard index < bytes.count else { throw XMLReadError("Element <\(qualified)> is not closed.") }
            // What follows a '<' decides (one byte read, not six comparisons in turn).
            let next = bytes[index] == UInt8(ascii: "<") && index + 1 < bytes.count ? bytes[index + 1] : nil
            if next == UInt8(ascii: "/") {
                index += 2
                // The closing name compared on its bytes: no string made for it.
                let closingStart = index
                skipName()
                let closes = index - closingStart == nameEnd - nameStart && sameBytes(closingStart, nameStart, nameEnd - nameStart)
                skipSpace()
                guard closes, peek(">") else {
                    throw XMLReadError("</\(String(decoding: bytes[closingStart..<index], as: UTF8.self))> does not close <\(qualified)>.")
                }
                index += 1
                return element
            } else if next == UInt8(ascii: "!") {
                if peek("<!--") {
                    try skip(past: "-->")
                } else if peek("<![CDATA[") {
                    index += 9
                    let start = index
                    try skip(past: "]]>")
                    element.text += String(decoding: bytes[start..<(index - 3)], as: UTF8.self)
                } else {
                    throw XMLReadError("Document type declarations and entities are not accepted.")
                }
            } else if next == UInt8(ascii: "?") {
                try skip(past: "?>")
            } else if bytes[index] == UInt8(ascii: "<") {
                element.children.append(try self.element(depth: depth + 1, scope: scope, scopeID: scopeID))
            } else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                // Most elements have one piece of text: it is the text, not appended to "".
                if element.text.isEmpty { element.text = try decodeText(start, index) } else { element.text += try decodeText(start, index) }
            }
        }
    }

    /// The element named by the bytes from `start` to `end`, in `scope`. Read on the
    /// body's bytes, never on a string of the whole name (splitting a String breaks it into
    /// Characters, and walking its indices cost a tenth of a multiget of 100 hrefs): the same
    /// parts as `split(separator: ":", maxSplits: 1)`, leading colons skipped, the prefix up
    /// to the next colon, the rest (if any) the local name.
    private mutating func resolve(_ start: Int, _ end: Int, scope: [String: String], scopeID: Int) throws -> XMLElement {
        let count = end - start
        if lastName.scope == scopeID, lastName.count == count, sameBytes(lastName.start, start, count) {
            return XMLElement(namespace: lastName.namespace, name: lastName.name)
        }
        let element = try resolveAnew(start, end, scope: scope)
        lastName = (start, count, scopeID, element.namespace, element.name)
        return element
    }

    /// True when the `count` bytes at `first` and at `second` are equal.
    private func sameBytes(_ first: Int, _ second: Int, _ count: Int) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return count == 0 }
            return memcmp(base + first, base + second, count) == 0
        }
    }

    private func resolveAnew(_ start: Int, _ end: Int, scope: [String: String]) throws -> XMLElement {
        let colon = UInt8(ascii: ":")
        var first = start
        while first < end, bytes[first] == colon { first += 1 }
        var separator = first
        while separator < end, bytes[separator] != colon { separator += 1 }
        if first < end, separator < end, separator + 1 != end {
            let prefix = text(first, separator)
            guard let namespace = scope[prefix] else { throw XMLReadError("The prefix '\(prefix)' is not declared.") }
            return XMLElement(namespace: namespace, name: text(separator + 1, end))
        }
        return XMLElement(namespace: scope[""] ?? "", name: text(start, end))
    }

    private mutating func name() throws -> String {
        let (start, end) = try nameBounds()
        return text(start, end)
    }

    /// Moves past a name and returns where it starts and ends; refuses an empty one.
    private mutating func nameBounds() throws -> (start: Int, end: Int) {
        let start = index
        skipName()
        guard index > start else { throw XMLReadError("Expected a name at byte \(start).") }
        return (start, index)
    }

    /// Moves past a name: up to white space, '>', '/' or '='.
    private mutating func skipName() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "=") { break }
            index += 1
        }
    }

    /// The bytes from `start` to `end` as a string (the body is UTF-8, checked by `parse`).
    /// Made from a pointer and a count: from the array's slice, or a rebased slice of its
    /// buffer, the standard library ran generic code and looked the slice's type up at run
    /// time on every call.
    private func text(_ start: Int, _ end: Int) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, end > start else { return "" }
            return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
        }
    }

    /// Text with `&amp;`-style and `&#…;` references decoded; anything else is refused.
    private func decodeText(_ start: Int, _ end: Int) throws -> String {
        let raw = text(start, end)
        // A byte test: `String.contains("&")` is Foundation's substring search (5% of a multiget).
        guard bytes[start..<end].contains(UInt8(ascii: "&")) else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                throw XMLReadError("A '&' that starts no entity reference.")
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number: UInt32?
                if entity.hasPrefix("#x") { number = UInt32(entity.dropFirst(2), radix: 16) } else if entity.hasPrefix("#") {
                    number = UInt32(entity.dropFirst())
                } else { number = nil }
                guard let number, let scalar = Unicode.Scalar(number) else {
                    throw XMLReadError("The entity '&\(entity);' is not accepted (only the predefined ones and character references).")
                }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { buffer in (0..<count).allSatisfy { bytes[index + $0] == buffer[$0] } }
    }

    private mutating func skip(past end: StaticString) throws {
        let count = end.utf8CodeUnitCount
        while index + count <= bytes.count {
            if peek(end) { index += count; return }
            index += 1
        }
        throw XMLReadError("The body ends inside a comment, CDATA section or processing instruction.")
    }
}

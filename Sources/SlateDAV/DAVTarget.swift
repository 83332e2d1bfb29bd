import Foundation
import SlateCore

/// What a request path under `/dav/` names.
enum DAVTarget: Equatable {
    /// `/dav/`: where discovery starts.
    case root
    /// `/dav/principals/` (the collection of principals: only the caller's is listed).
    case principals
    /// `/dav/principals/<account>/`.
    case principal
    /// `/dav/calendars/<account>/`: the calendar home.
    case home
    /// `/dav/calendars/<account>/<collection>/`.
    case collection(String)
    /// `/dav/calendars/<account>/<collection>/<resource>`.
    case object(collection: String, name: String)

    /// Reads a path; a segment naming another account reads as nothing (nil), exactly as
    /// one naming no account does.
    static func parse(_ path: String, account: String) -> DAVTarget? {
        var path = path
        return path.withUTF8 { parse($0, account: account) }
    }

    /// The last segment of `path`, decoded, when `path` is `directory` (a path that ends with
    /// `/`) and one more segment: what `parse` would read as that segment, found without
    /// reading the rest again (a multiget's hrefs are its collection's path and a name).
    /// Compared on the bytes: `String.UTF8View`'s `starts(with:)` cost 1,500 instructions
    /// for a path of 30 bytes.
    static func segment(of path: String, under directory: String) -> String? {
        var path = path
        var directory = directory
        return path.withUTF8 { whole in
            directory.withUTF8 { prefix -> String? in
                guard !prefix.isEmpty, whole.count > prefix.count, memcmp(whole.baseAddress!, prefix.baseAddress!, prefix.count) == 0 else {
                    return nil
                }
                let rest = UnsafeBufferPointer(start: whole.baseAddress! + prefix.count, count: whole.count - prefix.count)
                return rest.contains(UInt8(ascii: "/")) ? nil : decoded(rest)
            }
        }
    }

    /// A segment's bytes as text, percent-escapes decoded (left as they are when they do not
    /// decode).
    private static func decoded(_ segment: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: segment, as: UTF8.self)
        return segment.contains(UInt8(ascii: "%")) ? text.removingPercentEncoding ?? text : text
    }

    /// The segments are found on the bytes (a `/` is never part of a longer UTF-8 sequence)
    /// and only the few a target keeps become strings; the fixed ones are compared on their
    /// bytes. Splitting with the standard library's generic `split` was a tenth of a multiget
    /// of 100 hrefs; making each segment a string from a rebased slice (a type the runtime
    /// looked up on every call) a tenth again.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, account: String) -> DAVTarget? {
        guard let base = bytes.baseAddress else { return nil }
        let slash = UInt8(ascii: "/")
        var segments: [Range<Int>] = []
        segments.reserveCapacity(5)
        var index = 0
        while index < bytes.count {
            guard bytes[index] != slash else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, bytes[index] != slash { index += 1 }
            // Beyond `/dav/calendars/<account>/<collection>/<resource>`: nothing is there.
            guard segments.count < 5 else { return nil }
            segments.append(start..<index)
        }
        func part(_ segment: Range<Int>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: base + segment.lowerBound, count: segment.count)
        }
        func text(_ segment: Range<Int>) -> String { decoded(part(segment)) }
        /// True when the segment's bytes are ASCII without `%`: then it reads as another
        /// string exactly when their bytes are equal (String's `==` also equates differently
        /// composed accents, so any other segment is compared as text).
        func isPlain(_ part: UnsafeBufferPointer<UInt8>) -> Bool {
            !part.contains { $0 >= 0x80 || $0 == UInt8(ascii: "%") }
        }
        /// True when the segment reads as `word` (on its bytes when plain, else as text).
        func reads(_ segment: Range<Int>, _ word: String) -> Bool {
            let part = part(segment)
            guard isPlain(part) else { return text(segment) == word }
            var word = word
            // Equal counts: both non-empty, as every segment is.
            return word.withUTF8 { $0.count == part.count && memcmp($0.baseAddress!, part.baseAddress!, part.count) == 0 }
        }
        guard let first = segments.first, reads(first, "dav") else { return nil }
        switch segments.count {
        case 1: return .root
        case 2: return reads(segments[1], "principals") ? .principals : nil
        default: break
        }
        guard reads(segments[2], account) else { return nil }
        switch segments.count {
        case 3 where reads(segments[1], "principals"): return .principal
        case 3 where reads(segments[1], "calendars"): return .home
        case 4 where reads(segments[1], "calendars"): return .collection(text(segments[3]))
        case 5 where reads(segments[1], "calendars"): return .object(collection: text(segments[3]), name: text(segments[4]))
        default: return nil
        }
    }

    var isCollection: Bool {
        if case .object = self { return false }
        return true
    }
}

/// The addresses of an account's DAV resources, percent-encoded.
struct DAVPaths {
    let account: String

    static let root = "/dav/"
    var principal: String { "/dav/principals/\(Self.encode(account))/" }
    var home: String { "/dav/calendars/\(Self.encode(account))/" }
    func collection(_ name: String) -> String { home + Self.encode(name) + "/" }
    func object(_ collection: String, _ name: String) -> String { objects(in: collection)(name) }

    /// The href of each object of `collection`, for a listing of many: the collection's part
    /// is built once (a listing of 10,000 objects spent 7% of its time building it again).
    func objects(in collection: String) -> (String) -> String {
        let prefix = self.collection(collection)
        return { prefix + Self.encode($0) }
    }

    func href(_ target: DAVTarget) -> String {
        switch target {
        case .root: Self.root
        case .principals: "/dav/principals/"
        case .principal: principal
        case .home: home
        case .collection(let name): collection(name)
        case .object(let collection, let name): object(collection, name)
        }
    }

    /// A segment percent-encoded: letters, digits and `-._~@+` stay.
    static func encode(_ segment: String) -> String {
        if segment.utf8.allSatisfy(isUnreserved) { return segment }
        var text = ""
        for byte in segment.utf8 {
            if isUnreserved(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                text.unicodeScalars.append("%")
                text.unicodeScalars.append(digits[Int(byte >> 4)])
                text.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return text
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-._~@+".utf8.contains(byte)
        }
    }
}

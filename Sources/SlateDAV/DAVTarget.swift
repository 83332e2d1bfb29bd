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

    /// The segments are found on the bytes (a `/` is never part of a longer UTF-8 sequence)
    /// and only the few a target keeps become strings: splitting with the standard library's
    /// generic `split` was a tenth of a multiget of 100 hrefs.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, account: String) -> DAVTarget? {
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
        func text(_ segment: Range<Int>) -> String {
            let part = UnsafeBufferPointer(rebasing: bytes[segment])
            let text = String(decoding: part, as: UTF8.self)
            return part.contains(UInt8(ascii: "%")) ? text.removingPercentEncoding ?? text : text
        }
        guard let first = segments.first, text(first) == "dav" else { return nil }
        switch segments.count {
        case 1: return .root
        case 2: return text(segments[1]) == "principals" ? .principals : nil
        default: break
        }
        guard text(segments[2]) == account else { return nil }
        let kind = text(segments[1])
        switch (kind, segments.count) {
        case ("principals", 3): return .principal
        case ("calendars", 3): return .home
        case ("calendars", 4): return .collection(text(segments[3]))
        case ("calendars", 5): return .object(collection: text(segments[3]), name: text(segments[4]))
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

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
        // Split on the byte: a `/` is never part of a longer UTF-8 sequence, and splitting the
        // String itself breaks it into Characters (8% of a multiget of 100 hrefs).
        var segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { segment -> String in
            let text = String(Substring(segment))
            // A byte test: `contains("%")` is Foundation's substring search (30,000 instructions a path).
            return segment.contains(UInt8(ascii: "%")) ? text.removingPercentEncoding ?? text : text
        }
        guard segments.first == "dav" else { return nil }
        segments.removeFirst()
        switch segments.count {
        case 0: return .root
        case 1: return segments[0] == "principals" ? .principals : nil
        default: break
        }
        guard segments[1] == account else { return nil }
        switch (segments[0], segments.count) {
        case ("principals", 2): return .principal
        case ("calendars", 2): return .home
        case ("calendars", 3): return .collection(segments[2])
        case ("calendars", 4): return .object(collection: segments[2], name: segments[3])
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

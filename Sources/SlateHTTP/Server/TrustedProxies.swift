import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IP address or a CIDR range of them (`10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`).
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The network's bytes (4 for IPv4, 16 for IPv6).
    let bytes: [UInt8]
    /// How many leading bits must match.
    let prefixLength: Int

    /// Parses `text`; nil when it is neither an address nor `address/bits` with bits in range.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        let length: Int
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...bytes.count * 8).contains(bits), parts[1].allSatisfy(\.isNumber) else { return nil }
            length = bits
        } else {
            length = bytes.count * 8
        }
        self.bytes = bytes
        self.prefixLength = length
    }

    /// True when `address` (a numeric IPv4 or IPv6 address) is in the range. An IPv4
    /// address written as IPv6 (`::ffff:10.0.0.1`) matches IPv4 ranges.
    public func contains(_ address: String) -> Bool {
        guard var other = Self.bytes(of: address) else { return false }
        if other.count == 16, bytes.count == 4, other[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF][...] {
            other = Array(other[12...])
        }
        guard other.count == bytes.count else { return false }
        var remaining = prefixLength
        for index in bytes.indices where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if bytes[index] & mask != other[index] & mask { return false }
            remaining -= 8
        }
        return true
    }

    public var description: String {
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        var buffer = [CChar](repeating: 0, count: 64)
        let text = bytes.withUnsafeBytes { raw in
            guard inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
            // The text up to its NUL (`String(cString:)` on an array is deprecated).
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return prefixLength == bytes.count * 8 ? text : "\(text)/\(prefixLength)"
    }

    /// The bytes of a numeric address, or nil.
    static func bytes(of text: String) -> [UInt8]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var v4 = in_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, trimmed, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

/// Which peer addresses are reverse proxies whose `X-Forwarded-For` is believed.
public struct TrustedProxies: Sendable {
    public var ranges: [AddressRange]

    public init(_ ranges: [AddressRange] = []) { self.ranges = ranges }

    public var isEmpty: Bool { ranges.isEmpty }

    func trusts(_ address: String) -> Bool { ranges.contains { $0.contains(address) } }

    /// The client's address: the peer's, unless the peer is trusted; then the right-most
    /// hop of `X-Forwarded-For` that is not itself a trusted proxy (hops to its left could
    /// have been written by the client). A malformed hop stops the walk at the last good one.
    public func clientAddress(peer: String, forwardedFor: [String]) -> String {
        guard trusts(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peer
        for hop in hops.reversed() {
            guard AddressRange.bytes(of: hop) != nil else { break }
            client = hop
            if !trusts(hop) { break }
        }
        return client
    }
}

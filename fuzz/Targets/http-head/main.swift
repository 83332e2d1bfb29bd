import Foundation
import FuzzSupport
@testable import SlateHTTP

// What the server reads from a request's head before any route runs: the framing checks
// (Content-Length, Transfer-Encoding, header names) and the client address behind trusted
// proxies (X-Forwarded-For, address ranges). The input is lines: the peer's address, the
// trusted ranges (comma-separated), then `Name: value` header lines.
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    let lines = FuzzInput.text(start, count).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let peer = lines.first ?? ""
    let ranges = lines.dropFirst().first.map { $0.split(separator: ",").compactMap { AddressRange(String($0)) } } ?? []
    var headers = HTTPHeaders()
    for line in lines.dropFirst(2) {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
    }
    _ = RequestFraming.problem(in: headers)
    let proxies = TrustedProxies(ranges)
    let client = proxies.clientAddress(peer: peer, forwardedFor: headers.values("X-Forwarded-For"))
    guard client == peer || AddressRange.bytes(of: client) != nil else {
        fatalError("the client address '\(client)' is neither the peer nor a numeric address")
    }
    for range in ranges { _ = range.description; _ = range.contains(peer) }
    return 0
}

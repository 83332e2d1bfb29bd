import Foundation
import Testing
@testable import SlateHTTP

/// The client address behind reverse proxies: `X-Forwarded-For` is believed only from a
/// trusted peer, and then only up to the right-most hop that is not a trusted proxy.
@Suite struct TrustedProxyTests {
    @Test func rangesParseAndMatch() throws {
        let network = try #require(AddressRange("10.0.0.0/8"))
        #expect(network.contains("10.200.3.4") && !network.contains("11.0.0.1") && !network.contains("::1"))
        #expect(network.contains("::ffff:10.1.2.3"))
        let single = try #require(AddressRange("192.168.1.5"))
        #expect(single.contains("192.168.1.5") && !single.contains("192.168.1.6"))
        let v6 = try #require(AddressRange("fd00::/8"))
        #expect(v6.contains("fd12::1") && !v6.contains("fe80::1"))
        #expect(AddressRange("::1")?.contains("::1") == true)
        for bad in ["", "10.0.0.0/33", "10.0.0/8", "example.org", "::1/129", "10.0.0.1/-1", "10.0.0.1/"] {
            #expect(AddressRange(bad) == nil, "\(bad) is refused")
        }
        #expect(network.description == "10.0.0.0/8" && single.description == "192.168.1.5")
        #expect(v6.description == "fd00::/8" && AddressRange("2001:db8::42")?.description == "2001:db8::42")
    }

    @Test func theRightMostUntrustedHopIsTheClient() throws {
        let proxies = TrustedProxies([try #require(AddressRange("127.0.0.1")), try #require(AddressRange("10.0.0.0/8"))])
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.9"]) == "203.0.113.9")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["1.1.1.1, 203.0.113.9, 10.0.0.7"]) == "203.0.113.9",
                "a spoofed left-most hop is ignored; trusted hops are skipped")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["1.1.1.1", "203.0.113.9"]) == "203.0.113.9", "repeated headers join")
        #expect(proxies.clientAddress(peer: "198.51.100.1", forwardedFor: ["203.0.113.9"]) == "198.51.100.1", "an untrusted peer's header is ignored")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["garbage, 10.0.0.7"]) == "10.0.0.7", "a malformed hop stops the walk")
        #expect(TrustedProxies().clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.9"]) == "127.0.0.1")
    }
}

extension OverTheWire {
    @Suite struct TrustedProxyWireTests {
        @Test func requestsFromATrustedProxyCarryTheForwardedClientAddress() async throws {
            var router = Router()
            router.on(.get, "/who") { request in .text(request.remoteAddress) }
            let trusted = try #require(AddressRange("127.0.0.0/8"))
            try await withServer(router, configure: { $0.trustedProxies = TrustedProxies([trusted]) }) { server in
                let port = server.port
                let (forwarded, plain) = try await offPool {
                    let connection = try RawConnection(port: port)
                    let forwarded = try connection.exchange("GET /who HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: 1.2.3.4, 203.0.113.7\r\n\r\n").text
                    let plain = try connection.exchange("GET /who HTTP/1.1\r\nHost: t\r\n\r\n").text
                    return (forwarded, plain)
                }
                #expect(forwarded == "203.0.113.7" && plain == "127.0.0.1")
            }
            try await withServer(router) { server in
                let port = server.port
                let ignored = try await offPool {
                    try RawConnection(port: port).exchange("GET /who HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n").text
                }
                #expect(ignored == "127.0.0.1", "no trusted proxy: the header is ignored")
            }
        }
    }
}

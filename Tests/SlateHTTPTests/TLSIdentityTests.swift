import Foundation
import Testing
@testable import SlateHTTP

// The TLS identity's checks; serving HTTPS with a real certificate (made by openssl req)
// is tested end to end by tests/ops/test_service.py.

@Suite struct TLSIdentityTests {
    static let certificate = Data("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8)
    static let key = Data("-----BEGIN PRIVATE KEY-----\nsecret-key-material\n-----END PRIVATE KEY-----\n".utf8)

    @Test func acceptsPEMAndNeverShowsTheKey() throws {
        let identity = try TLSIdentity(certificatePEM: Self.certificate, keyPEM: Self.key)
        #expect(!"\(identity)".contains("secret-key-material"))
        #expect("\(identity)".contains("key: hidden"))
    }

    @Test func refusesWhatIsNotPEM() {
        #expect(throws: HTTPServerError.self) { try TLSIdentity(certificatePEM: Data("hello".utf8), keyPEM: Self.key) }
        #expect(throws: HTTPServerError.self) { try TLSIdentity(certificatePEM: Self.certificate, keyPEM: Self.certificate) }
        #expect(throws: HTTPServerError.self) { try TLSIdentity(certificatePEM: Self.certificate, keyPEM: Data([0, 1, 2])) }
    }

    @Test func aServerWithABrokenCertificateDoesNotStart() throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.tls = try TLSIdentity(certificatePEM: Self.certificate, keyPEM: Self.key)
        let server = HTTPServer(configuration: configuration, responder: Router())
        #expect(throws: HTTPServerError.self) { try server.start() }
        #expect(!server.isRunning)
    }
}

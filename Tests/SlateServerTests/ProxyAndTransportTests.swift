import Foundation
import SlateCore
import SlateHTTP
import SlateStore
import TestDatabases
import Testing
@testable import SlateServer

/// What `slate serve --trusted-proxy` changes in the service: HSTS and Secure cookies.
@Suite struct ProxyAndTransportTests {
    @Test func strictTransportSecurityIsSentOnlyWhenAsked() async throws {
        let container = try Slate.openContainer(path: TestDatabase.freshStore())
        let behindTLS = SlateService(container: container, webRoot: nil, secureCookies: true, strictTransportSecurity: true, logLevel: .off)
        let plain = SlateService(container: container, webRoot: nil, secureCookies: false, logLevel: .off)
        let request = Request(method: .get, target: "/api/v1/openapi.json")
        #expect(try await behindTLS.router.respond(to: request).headers["Strict-Transport-Security"] == "max-age=31536000")
        #expect(try await plain.router.respond(to: request).headers["Strict-Transport-Security"] == nil)
        let refused = try await behindTLS.router.respond(to: Request(method: .get, target: "/api/v1/tasks"))
        #expect(refused.status.code == 401 && refused.headers["Strict-Transport-Security"] != nil, "errors carry it too")
    }
}

import Foundation
import SlateCore
import SlateHTTP

/// `GET /healthz` and `GET /readyz`, for reverse proxies, service managers and
/// orchestrators. Neither needs signing in, and neither says more than a word per check:
/// no paths, no SQL, no library messages.
///
/// - `/healthz`: the process answers requests. `200 {"status":"alive"}`.
/// - `/readyz`: the database is reachable and at the schema this build expects.
///   `200 {"status":"ready",…}`, or `503 {"status":"unavailable","database":"unreachable"}`
///   when the file is gone, replaced or unreadable, and `"schema":"outdated"` when the file
///   was replaced by an older one (a forced restore: restart to migrate it).
struct HealthController {
    let container: BoardStore
    let schemaVersion: Int
    /// The database file as it was when the server started (device and inode).
    let identity: FileIdentity?

    init(container: BoardStore, schemaVersion: Int) {
        self.container = container
        self.schemaVersion = schemaVersion
        identity = container.configuration.path.flatMap(FileIdentity.init(path:))
    }

    func addRoutes(to router: inout Router) {
        router.on(.get, "/healthz") { _ in Self.answer(["status": "alive"], status: .ok) }
        router.on(.get, "/readyz") { _ in readiness() }
    }

    /// The checks, each `ok` or a word saying what is wrong.
    func checks() -> [String: String] {
        var checks = ["database": "ok", "schema": "ok"]
        if let path = container.configuration.path, FileIdentity(path: path) != identity {
            checks["database"] = "unreachable"
        }
        do {
            if try container.storedSchemaVersion() != schemaVersion { checks["schema"] = "outdated" }
            _ = try container.currentRevision()
        } catch {
            checks["database"] = "unreachable"
        }
        return checks
    }

    func readiness() -> Response {
        let checks = checks()
        let ready = checks.values.allSatisfy { $0 == "ok" }
        var body: [String: Any] = ["status": ready ? "ready" : "unavailable"]
        for (name, value) in checks { body[name] = value }
        return Self.answer(body, status: ready ? .ok : .serviceUnavailable)
    }

    static func answer(_ body: [String: Any], status: HTTPStatus) -> Response {
        var response = Response.json(JSONSerialization.body(body), status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}

/// Which file a path names: device and inode, so a file moved away or replaced is noticed
/// even while open connections still read the old one.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

import Foundation
import Testing
@testable import SlateHTTP

@Suite struct StaticFilesTests {
    static let script = String(repeating: "export const answer = 42;\n", count: 40)

    static func site() throws -> TemporaryDirectory {
        let site = try TemporaryDirectory()
        try site.write("index.html", "<!doctype html><title>Slate</title>")
        try site.write("app.js", script)
        try site.write("css/app.css", String(repeating: "body { margin: 0 }\n", count: 30))
        try site.write("docs/index.html", "docs")
        try site.write(".env", "SECRET=1")
        return site
    }

    static func get(_ files: StaticFiles, _ target: String, _ headers: HTTPHeaders = [:]) async throws -> Response {
        try await files.respond(to: Request(method: .get, target: target, headers: headers))
    }

    @Test(arguments: [
        ("index.html", "text/html; charset=utf-8"), ("app.css", "text/css; charset=utf-8"),
        ("app.js", "text/javascript; charset=utf-8"), ("mod.mjs", "text/javascript; charset=utf-8"),
        ("data.json", "application/json"), ("manifest.webmanifest", "application/manifest+json"),
        ("icon.svg", "image/svg+xml"), ("icon.png", "image/png"), ("favicon.ico", "image/x-icon"),
        ("font.woff2", "font/woff2"), ("robots.txt", "text/plain; charset=utf-8"),
        ("archive.bin", "application/octet-stream"), ("README", "application/octet-stream"), ("PAGE.HTML", "text/html; charset=utf-8"),
    ])
    func contentTypesByExtension(name: String, type: String) {
        #expect(MediaType.forFile(named: name) == type)
    }

    @Test func servesFilesWithTypeETagAndCacheControl() async throws {
        let site = try Self.site()
        let files = StaticFiles(root: site.path)
        let response = try await Self.get(files, "/app.js")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(response.headers["Content-Encoding"] == nil)
        let etag = try #require(response.headers["ETag"])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
        guard case .file(let path, let length) = response.body else { Issue.record("not a file body"); return }
        #expect(path.hasSuffix("/app.js") && length == Self.script.utf8.count)
    }

    @Test func matchingIfNoneMatchIs304() async throws {
        let site = try Self.site()
        let files = StaticFiles(root: site.path)
        let etag = try #require(try await Self.get(files, "/app.js").headers["ETag"])
        for header in [etag, "\"other\", \(etag)", "W/\(etag)", "*"] {
            let response = try await Self.get(files, "/app.js", ["If-None-Match": header])
            #expect(response.status == .notModified)
            #expect(response.headers["ETag"] == etag)
            #expect(response.bodyData == Data())
        }
        #expect(try await Self.get(files, "/app.js", ["If-None-Match": "\"stale\""]).status == .ok)
    }

    @Test func changedFileGetsANewETag() async throws {
        let site = try Self.site()
        let files = StaticFiles(root: site.path)
        let before = try await Self.get(files, "/app.js").headers["ETag"]
        try site.write("app.js", Self.script + "// more\n")
        let after = try await Self.get(files, "/app.js").headers["ETag"]
        #expect(before != after)
    }

    @Test func gzipWhenAccepted() async throws {
        let site = try Self.site()
        let files = StaticFiles(root: site.path)
        let plainTag = try #require(try await Self.get(files, "/app.js").headers["ETag"])
        let response = try await Self.get(files, "/app.js", ["Accept-Encoding": "br;q=1.0, gzip;q=0.8"])
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        let gzipTag = try #require(response.headers["ETag"])
        #expect(gzipTag != plainTag && gzipTag.hasSuffix("-gz\""))
        let body = try #require(response.bodyData)
        #expect(body.count < Self.script.utf8.count)
        #expect(Gzip.decompress(body).map { String(decoding: $0, as: UTF8.self) } == Self.script)
        let revalidated = try await Self.get(files, "/app.js", ["Accept-Encoding": "gzip", "If-None-Match": gzipTag])
        #expect(revalidated.status == .notModified)
    }

    @Test(arguments: [
        ("gzip", true), ("deflate, gzip", true), ("GZIP;q=0.5", true), ("*", true), ("x-gzip", true),
        ("gzip;q=0", false), ("identity", false), ("*;q=0", false), ("gzip;q=0, *", false), ("", false),
    ])
    func acceptEncodingParsing(header: String, accepted: Bool) {
        #expect(acceptsGzip(header) == accepted)
    }

    @Test func smallAndIncompressibleFilesAreNotGzipped() async throws {
        let site = try Self.site()
        try site.write("tiny.css", "a{}")
        try site.write("icon.png", String(repeating: "P", count: 2000))
        let files = StaticFiles(root: site.path)
        #expect(try await Self.get(files, "/tiny.css", ["Accept-Encoding": "gzip"]).headers["Content-Encoding"] == nil)
        let png = try await Self.get(files, "/icon.png", ["Accept-Encoding": "gzip"])
        #expect(png.headers["Content-Encoding"] == nil && png.headers["Vary"] == nil)
    }

    @Test func directoriesServeIndexAndRedirectToTheirSlash() async throws {
        let site = try Self.site()
        let files = StaticFiles(root: site.path)
        let root = try await Self.get(files, "/")
        #expect(root.headers["Content-Type"] == "text/html; charset=utf-8")
        let docs = try await Self.get(files, "/docs/")
        guard case .file(let path, _) = docs.body else { Issue.record("not a file"); return }
        #expect(path.hasSuffix("docs/index.html"))
        let redirect = try await Self.get(files, "/docs?page=a%20b")
        #expect(redirect.status == .movedPermanently)
        #expect(redirect.headers["Location"] == "/docs/?page=a%20b")
    }

    @Test(arguments: ["/../etc/passwd", "/css/../../secret", "/%2e%2e/secret", "/a\\..\\b"])
    func traversalIsRefused(target: String) async throws {
        let site = try Self.site()
        await #expect(throws: HTTPError.self) { try await Self.get(StaticFiles(root: site.path), target) }
        do {
            _ = try await Self.get(StaticFiles(root: site.path), target)
        } catch let error as HTTPError {
            #expect(error.status == .badRequest && error.code == "invalid_path")
        }
    }

    @Test func dotfilesMissingFilesAndSymlinkEscapesAreNotFound() async throws {
        let site = try Self.site()
        let outside = try TemporaryDirectory()
        try outside.write("secret.txt", "secret")
        try FileManager.default.createSymbolicLink(atPath: site.path + "/escape.txt", withDestinationPath: outside.path + "/secret.txt")
        let files = StaticFiles(root: site.path)
        for target in ["/.env", "/missing.js", "/escape.txt"] {
            await #expect(throws: HTTPError.self) { try await Self.get(files, target) }
        }
    }

    @Test func prefixMountsTheDirectory() async throws {
        let site = try Self.site()
        let files = StaticFiles(root: site.path, prefix: "/assets", cacheControl: "public, max-age=60")
        let response = try await Self.get(files, "/assets/css/app.css")
        #expect(response.status == .ok && response.headers["Cache-Control"] == "public, max-age=60")
        await #expect(throws: HTTPError.self) { try await Self.get(files, "/css/app.css") }
    }

    @Test func asMiddlewareRoutesWinAndFilesFillIn() async throws {
        let site = try Self.site()
        try site.write("api", "a file named like a route")
        var router = Router()
        router.use(StaticFiles(root: site.path))
        router.on(.get, "/api") { _ in .text("route") }
        router.on(.post, "/form") { _ in .text("posted") }
        #expect(try await router.respond(to: Request(method: .get, target: "/api")).text == "route")
        #expect(try await router.respond(to: Request(method: .get, target: "/app.js")).status == .ok)
        #expect(try await router.respond(to: Request(method: .head, target: "/app.js")).status == .ok)
        let missing = try await router.respond(to: Request(method: .get, target: "/missing"))
        #expect(missing.status == .notFound && missing.errorObject?["code"] == "not_found")
        #expect(try await router.respond(to: Request(method: .post, target: "/app.js")).status == .notFound)
    }

    @Test func otherMethodsAre405() async throws {
        let site = try Self.site()
        do {
            _ = try await StaticFiles(root: site.path).respond(to: Request(method: .post, target: "/app.js"))
            Issue.record("POST was served")
        } catch let error as HTTPError {
            #expect(error.status == .methodNotAllowed && error.headers["Allow"] == "GET, HEAD")
        }
    }
}

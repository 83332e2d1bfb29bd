import Foundation

/// Serves the files under a directory: a web app's HTML, CSS, modules, icons and fonts.
///
/// - Content types come from the file extension (``MediaType``).
/// - Every response carries a strong `ETag` made from the file's size and modification
///   time; a matching `If-None-Match` gets `304 Not Modified`.
/// - Text-like files are gzipped when the client's `Accept-Encoding` admits gzip. zlib
///   compresses each version of a file once and keeps it (``GzipCache``); the gzip
///   representation has its own ETag (`…-gz"`), and both send `Vary: Accept-Encoding`.
///   Other files go out with sendfile.
/// - `..` segments are refused (400); dotfiles and anything that resolves outside the
///   root through a symlink are not found (404).
/// - A directory serves its `index.html`; a directory path without its final `/` is
///   redirected to it, so relative links in the page resolve.
///
/// Use it as the responder for a mount point, or as middleware that answers the GET and
/// HEAD requests no route claims:
///
/// ```swift
/// router.use(StaticFiles(root: "Web"))   // routes first, then files
/// ```
public struct StaticFiles: Responder, Middleware {
    /// The directory served.
    public let root: String
    /// The URL path the directory appears at (`/` or `/assets`).
    public let prefix: String
    /// The `Cache-Control` sent with files. The default makes browsers revalidate each
    /// time, which the ETag makes cheap.
    public var cacheControl: String
    /// The file served for a directory.
    public var indexFile: String
    /// Whether to gzip compressible files for clients that accept it.
    public var gzip: Bool

    /// Files smaller than this are sent as they are: gzip would save too little.
    static let minimumGzipSize = 256
    /// Files larger than this are sent with sendfile rather than compressed in memory.
    static let maximumGzipSize = 4 << 20

    private let cache = GzipCache()

    /// Serves `root` at URL path `prefix`.
    public init(root: String, prefix: String = "/", cacheControl: String = "no-cache",
                indexFile: String = "index.html", gzip: Bool = true) {
        self.root = root
        self.prefix = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        self.cacheControl = cacheControl
        self.indexFile = indexFile
        self.gzip = gzip
    }

    public func respond(to request: Request) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            throw HTTPError(.methodNotAllowed, code: "method_not_allowed",
                            message: "\(request.method) is not allowed on \(request.path); use GET, HEAD.",
                            headers: ["Allow": "GET, HEAD"])
        }
        guard let response = try serve(request) else {
            throw HTTPError(.notFound, code: "not_found", message: "Nothing is at \(request.path).")
        }
        return response
    }

    /// Lets the rest of the chain answer first; a GET or HEAD that it answers 404 is tried
    /// as a file, and if there is none the original error stands.
    public func handle(_ request: Request, next: Handler) async throws -> Response {
        do {
            return try await next(request)
        } catch let error as HTTPError where error.status == .notFound && (request.method == .get || request.method == .head) {
            guard let response = try serve(request) else { throw error }
            return response
        }
    }

    /// The response for the file `request` names, or nil if there is no such file.
    func serve(_ request: Request) throws -> Response? {
        guard let relative = try relativePath(of: request.path) else { return nil }
        var path = relative.isEmpty ? root : root + "/" + relative
        guard var status = FileStatus.of(path) else { return nil }
        if status.kind == .directory {
            guard request.path.hasSuffix("/") else {
                return Response(status: .movedPermanently, headers: ["Location": request.path + "/" + Self.queryString(request.query)])
            }
            path += "/" + indexFile
            guard let index = FileStatus.of(path) else { return nil }
            status = index
        }
        guard status.kind == .file, isInsideRoot(path) else { return nil }

        let type = MediaType.forFile(named: path)
        let compressible = gzip && MediaType.isCompressible(type)
        let compress = compressible && acceptsGzip(request.headers["Accept-Encoding"])
            && (Self.minimumGzipSize...Self.maximumGzipSize).contains(status.size)
        let etag = compress ? String(status.etag.dropLast()) + "-gz\"" : status.etag

        var headers: HTTPHeaders = ["Content-Type": type, "ETag": etag, "Cache-Control": cacheControl]
        if compressible { headers["Vary"] = "Accept-Encoding" }
        if matches(request.headers["If-None-Match"], etag) {
            return Response(status: .notModified, headers: headers)
        }
        if compress, let data = try cache.compressed(path: path, etag: etag, read: { try Data(contentsOf: URL(fileURLWithPath: path)) }) {
            headers["Content-Encoding"] = "gzip"
            return Response(status: .ok, headers: headers, body: .data(data))
        }
        return Response(status: .ok, headers: headers, body: .file(path: path, length: status.size))
    }

    /// The path below the root, percent-decoded and checked: nil outside the prefix or for
    /// dotfiles; throws 400 for `..`, backslashes and NUL.
    private func relativePath(of urlPath: String) throws -> String? {
        guard urlPath == prefix || urlPath.hasPrefix(prefix + "/") else { return nil }
        guard let decoded = String(urlPath.dropFirst(prefix.count)).removingPercentEncoding else {
            throw HTTPError(.badRequest, code: "invalid_path", message: "The path is not valid percent-encoding.")
        }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/") where segment != "." {
            if segment == ".." || segment.contains("\\") || segment.contains("\0") {
                throw HTTPError(.badRequest, code: "invalid_path", message: "The path may not leave the served directory.")
            }
            if segment.hasPrefix(".") { return nil }
            segments.append(segment)
        }
        return segments.joined(separator: "/")
    }

    /// Symlinks may point anywhere; only files that resolve below the root are served.
    private func isInsideRoot(_ path: String) -> Bool {
        guard let realRoot = FileStatus.resolved(root), let realPath = FileStatus.resolved(path) else { return false }
        return realPath.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// `If-None-Match`: `*` or a list of tags, compared weakly as RFC 9110 says.
    private func matches(_ ifNoneMatch: String?, _ etag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }

    /// `?a=1&b=x%20y`, encoded again from the parsed query; empty without parameters.
    private static func queryString(_ query: [(name: String, value: String)]) -> String {
        guard !query.isEmpty else { return "" }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return "?" + query.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }
}

import Foundation

/// Media types for the files a web app ships, by file extension.
enum MediaType {
    private static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "webmanifest": "application/manifest+json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
        "woff": "font/woff",
        "txt": "text/plain; charset=utf-8",
        "xml": "application/xml",
        "wasm": "application/wasm",
    ]

    /// Types worth gzipping; images other than SVG and icons, and fonts, are compressed already.
    private static let compressible: Set<String> = [
        "application/json", "application/manifest+json", "image/svg+xml", "image/x-icon",
        "application/xml", "application/wasm",
    ]

    /// The `Content-Type` for a file name; unknown extensions are `application/octet-stream`,
    /// which with `nosniff` keeps browsers from guessing.
    static func forFile(named name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    static func isCompressible(_ type: String) -> Bool {
        let bare = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? type
        return bare.hasPrefix("text/") || compressible.contains(bare)
    }
}

/// Whether an `Accept-Encoding` value admits gzip: listed (or `*`) with a weight above 0.
func acceptsGzip(_ acceptEncoding: String?) -> Bool {
    guard let acceptEncoding else { return false }
    var gzipWeight: Double?
    var wildcardWeight: Double?
    for item in acceptEncoding.split(separator: ",") {
        let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let coding = parts.first?.lowercased(), !coding.isEmpty else { continue }
        var weight = 1.0
        for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
            weight = Double(parameter.dropFirst(2)) ?? 0
        }
        switch coding {
        case "gzip", "x-gzip": gzipWeight = weight
        case "*": wildcardWeight = weight
        default: break
        }
    }
    return (gzipWeight ?? wildcardWeight ?? 0) > 0
}

import CPostgreSQL
import Foundation

/// Where a PostgreSQL-backed store lives: a libpq connection URL
/// (`postgresql://slate@db.example.org/slate`, `postgresql:///slate?host=/run/postgresql`)
/// and, separately, the password, so that it can come from a file or the environment
/// rather than the URL. The store's tables go into the first schema of the connection's
/// `search_path` (`?options=-csearch_path%3Dslate` picks one).
///
/// `description` names the server, port, database and user, never the password: it is
/// what errors and logs show.
public struct PostgreSQLLocation: Sendable, CustomStringConvertible {
    /// The URL as given (it may hold a password: never print it).
    let url: String
    let password: String?
    public let description: String
    private let setsConnectTimeout: Bool

    /// True for a `postgresql://` or `postgres://` URL.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Checks `url` with libpq's own parser; throws `StoreError.cannotOpen` naming what is
    /// wrong (an unknown parameter, a bad port) without repeating the URL.
    public init(url: String, password: String? = nil) throws {
        guard Self.isURL(url) else {
            throw StoreError.cannotOpen(path: "the database URL", reason: "it must start with postgresql:// (or postgres://)")
        }
        // Every libpq call goes through a location first, so this is where libpq is loaded.
        var loadError = [CChar](repeating: 0, count: 256)
        guard slate_pq_load(&loadError, loadError.count) == 1 else {
            throw StoreError.cannotOpen(path: "the database URL", reason: String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &message) else {
            let reason = message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "it cannot be read"
            PQfreemem(message)
            throw StoreError.cannotOpen(path: "the database URL", reason: reason)
        }
        defer { PQconninfoFree(options) }
        var fields: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { fields[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        self.url = url
        self.password = password
        setsConnectTimeout = fields["connect_timeout"] != nil
        let user = fields["user"].map { $0 + "@" } ?? ""
        let host = fields["host"] ?? fields["hostaddr"] ?? ""
        let port = fields["port"].map { ":" + $0 } ?? ""
        let database = fields["dbname"] ?? ""
        // A socket folder is a path: show it as libpq's `host=` parameter.
        description = host.hasPrefix("/")
            ? "postgresql://\(user)/\(database)?host=\(host)\(port.isEmpty ? "" : "&port=" + port.dropFirst())"
            : "postgresql://\(user)\(host)\(port)/\(database)"
    }

    /// Opens a connection, or throws: `.unavailable` when the server cannot be reached now
    /// (down, starting, refusing), `.cannotOpen` when it answered and refused us (password,
    /// user, database) — a mistake to fix, not to wait out.
    func connect() throws -> OpaquePointer {
        var keywords = ["dbname", "fallback_application_name"]
        var values = [url, "slate"]
        if let password {
            keywords.append("password")
            values.append(password)
        }
        if !setsConnectTimeout {
            keywords.append("connect_timeout")
            values.append("10")
        }
        let connection = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else { throw StoreError.unavailable(database: description, reason: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(connection)
            throw Self.connectionError(reason, database: description)
        }
        return connection
    }

    /// libpq's `connection to server at "host", port 5432 failed: Connection refused` as
    /// `Connection refused (server at "host", port 5432)`: what went wrong first, still where.
    private static func whereFirst(_ line: Substring) -> String {
        String(line).replacingOccurrences(
            of: #"^connection to server (.*) failed: (.*)$"#, with: "$2 (server $1)", options: .regularExpression)
    }

    /// Sorts libpq's connection failures into "fix the configuration" (`.cannotOpen`) and
    /// "try later" (`.unavailable`), in words that say what to do.
    static func connectionError(_ reason: String, database: String) -> StoreError {
        // libpq says where it tried, then (after "FATAL:") what the server answered.
        let answer = reason.range(of: "FATAL:").map {
            reason[$0.upperBound...].split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        } ?? reason.split(separator: "\n").first.map(Self.whereFirst) ?? reason
        let passwordHint = "give it with --database-password-file FILE or SLATE_DATABASE_PASSWORD (or PGPASSWORD, ~/.pgpass)"
        if answer.contains("no password supplied") {
            return .cannotOpen(path: database, reason: "the server asks for a password and none was given; \(passwordHint)")
        }
        if answer.contains("password authentication failed") {
            return .cannotOpen(path: database, reason: "\(answer): the password is wrong; \(passwordHint)")
        }
        let refusals = ["does not exist", "not permitted to log in", "no pg_hba.conf entry", "permission denied",
                        "authentication failed", "invalid", "SSL"]
        if reason.contains("FATAL:"), refusals.contains(where: { answer.contains($0) }) {
            return .cannotOpen(path: database, reason: answer)
        }
        return .unavailable(database: database, reason: answer)
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

import CCurl
import Dispatch
import Foundation
import SlateCore
import Synchronization

/// Where and how email alerts are sent: `slate serve --smtp-url smtp[s]://host[:port]
/// --smtp-from ADDRESS`, with credentials from a file or the environment.
public struct SMTPConfiguration: Sendable {
    /// `smtp://host:port` (STARTTLS when offered, or required with `requireTLS`) or `smtps://host:port`.
    public var url: String
    public var from: String
    public var username: String?
    public var password: String?
    /// Refuse to send over a connection that could not be upgraded to TLS.
    public var requireTLS: Bool
    /// The web app's address, for the link in each email.
    public var publicURL: String

    public init(url: String, from: String, username: String? = nil, password: String? = nil, requireTLS: Bool, publicURL: String) throws {
        guard let parsed = URL(string: url), ["smtp", "smtps"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host?.isEmpty == false,
              parsed.user == nil, parsed.password == nil
        else {
            throw SlateError.invalid(field: "smtp-url", message: "'\(url)' is not an SMTP server; use smtp://host[:port] or smtps://host[:port] (credentials go in --smtp-credentials or SLATE_SMTP_USER / SLATE_SMTP_PASSWORD, never in the URL).")
        }
        self.url = url
        self.from = try AlertRules.validEmail(from, field: "smtp-from")
        self.username = username
        self.password = password
        self.requireTLS = requireTLS
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
    }

    /// Reads `user:password` or two lines (user, then password) from a file.
    public static func credentials(fromFile path: String) throws -> (String, String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw SlateError.invalid(field: "smtp-credentials", message: "Cannot read the SMTP credentials file.")
        }
        return try credentials(fromText: text)
    }

    /// The user and password in a credentials file's text (`user:password`, or the user
    /// and the password on two lines).
    public static func credentials(fromText text: String) throws -> (String, String) {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        if lines.count >= 2 { return (lines[0], lines[1]) }
        if let line = lines.first, let colon = line.firstIndex(of: ":") {
            return (String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        throw SlateError.invalid(field: "smtp-credentials", message: "The SMTP credentials file must hold user:password, or the user and the password on two lines.")
    }
}

/// The email channel: a plain-text and HTML message per alert to the account's address,
/// through the operator's SMTP server (libcurl). The Message-ID is the delivery id, the
/// same on every attempt. A server that refuses or cannot be reached is retried.
///
/// Messages go over `connections` connections kept open between messages (each on its own
/// thread; a connection idle for a minute is opened again): one TCP connection, EHLO and
/// STARTTLS per connection rather than per message.
///
/// What email can guarantee: SMTP has no way to ask "did you already take this message?",
/// so a kill in the instant between the server's acceptance (`250` after `DATA`) and the
/// scheduler's record of it sends the mail again at the next start — the same Message-ID,
/// with an `X-Slate-Redelivery: true` header. Mail stores that drop a repeated Message-ID
/// (Gmail does) show it once; others may show it twice. Nothing is ever lost.
public final class EmailAlerts: AlertChannel {
    public let name = "email"
    let configuration: SMTPConfiguration
    private let container: BoardStore
    private let connections: [SMTPConnection]
    private let nextConnection = Atomic(0)

    /// Loads libcurl (once); throws `SlateError.invalid` for `smtp-url` when it is missing
    /// or cannot start. `slate` is not linked against libcurl: only alerts need it.
    public static func loadLibrary() throws {
        var reason = [CChar](repeating: 0, count: 256)
        guard slate_curl_load(&reason, reason.count) == 1 else {
            throw SlateError.invalid(field: "smtp-url", message: String(cBuffer: reason))
        }
    }

    /// Simultaneous connections to the SMTP server.
    public static let defaultConnections = 4

    /// Throws `SlateError.invalid` for `smtp-url` when libcurl is missing or cannot start.
    public init(configuration: SMTPConfiguration, container: BoardStore, connections: Int = EmailAlerts.defaultConnections) throws {
        try Self.loadLibrary()
        self.configuration = configuration
        self.container = container
        self.connections = (0..<max(1, connections)).map { SMTPConnection(index: $0) }
    }

    /// Twice the connections: one message on each, one waiting.
    public var concurrentSends: Int { connections.count * 2 }

    public func targets(accountID: UUID, settings: AlertSettings) throws -> [String] {
        settings.email == nil ? [] : [name]
    }

    public func deliver(_ alert: FiredAlert) async throws {
        let container = self.container
        let (settings, listName) = try await BoardThreads.shared.read { () -> (AlertSettings, String?) in
            let slate = Slate(container: container, accountID: alert.accountID)
            return (try slate.alertSettings(), try alert.task.listID.flatMap { try slate.listsByID()[$0]?.name })
        }
        guard let to = settings.email else { throw PermanentDeliveryFailure("the account has no email address any more") }
        let message = EmailMessage(alert: alert, from: configuration.from, to: to, listName: listName, publicURL: configuration.publicURL).text
        let index = nextConnection.wrappingAdd(1, ordering: .relaxed).oldValue % connections.count
        try await connections[index].send(message, to: to, configuration: configuration)
    }
}

/// One open connection to the SMTP server: a libcurl handle used only on its own queue.
///
/// `@unchecked Sendable`: the handle is touched only by blocks on `queue`, a serial queue,
/// so no two threads use it at once; it is freed in `deinit`, when no block can run.
final class SMTPConnection: @unchecked Sendable {
    /// libcurl calls block: they run here, never on Swift's cooperative pool.
    private let queue: DispatchQueue
    private let handle: UnsafeMutableRawPointer?

    init(index: Int) {
        queue = DispatchQueue(label: "slate.alerts.smtp.\(index)")
        handle = slate_curl_open()
    }

    deinit { slate_curl_close(handle) }

    func send(_ message: String, to: String, configuration: SMTPConfiguration) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { [self] in
                var error = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
                var response = 0
                let bytes = Array(message.utf8)
                let result = bytes.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { pointer in
                        slate_smtp_send(self.handle, configuration.url, configuration.username, configuration.password, "<\(configuration.from)>",
                                        "<\(to)>", pointer, bytes.count, configuration.requireTLS ? 1 : 0, 20, &error, &response)
                    }
                }
                if result == Int32(CURLE_OK.rawValue) {
                    continuation.resume()
                } else {
                    let reason = String(cBuffer: error)
                    continuation.resume(throwing: SMTPFailure(code: Int(result), response: response, reason: reason))
                }
            }
        }
    }
}

/// An SMTP send that failed (retried by the scheduler).
struct SMTPFailure: Error, CustomStringConvertible {
    let code: Int
    let response: Int
    let reason: String
    var description: String { "SMTP failed (curl \(code), server \(response)): \(reason)" }
}

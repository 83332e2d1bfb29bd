import Foundation
import Synchronization

/// Lines about a running service, one per event: requests (through ``AccessLog``),
/// start, stop, reloads, backups. Text for people, or one JSON object per line for
/// journald and log shippers.
///
/// ```
/// text: slate: listening address=127.0.0.1:8080
/// json: {"event":"listening","address":"127.0.0.1:8080","level":"info","time":"2026-12-01T05:00:00.000Z"}
/// ```
///
/// Callers pass only what is safe to keep: never passwords, tokens, keys or queries.
/// The format and the request level can be changed while it is in use (a reload).
public final class ServiceLog: Sendable {
    /// How lines are written.
    public enum Format: String, Sendable, CaseIterable {
        /// `slate: event key=value …`; request lines keep ``AccessLog``'s short form.
        case text
        /// One JSON object per line with `time`, `level` and `event`.
        case json
    }

    private struct Settings {
        var format: Format
        var requestLevel: AccessLog.Level
    }

    private let settings: Mutex<Settings>
    private let write: @Sendable (String) -> Void

    /// A log in `format` that writes request lines at `requestLevel` and hands each line
    /// (without its newline) to `write`; standard error by default.
    public init(format: Format = .text, requestLevel: AccessLog.Level = .all,
                write: @escaping @Sendable (String) -> Void = AccessLog.standardError) {
        settings = Mutex(Settings(format: format, requestLevel: requestLevel))
        self.write = write
    }

    /// The line format.
    public var format: Format {
        get { settings.withLock { $0.format } }
        set { settings.withLock { $0.format = newValue } }
    }

    /// Which requests ``AccessLog`` writes a line for.
    public var requestLevel: AccessLog.Level {
        get { settings.withLock { $0.requestLevel } }
        set { settings.withLock { $0.requestLevel = newValue } }
    }

    /// Writes one line: `event` and its fields, in order; `level` is info, warning or error.
    public func event(_ event: String, level: String = "info", _ fields: KeyValuePairs<String, Any> = [:]) {
        switch format {
        case .text:
            var line = "slate: \(event)"
            for (key, value) in fields { line += " \(key)=\(Self.textValue(value))" }
            if level != "info" { line = "slate: \(level): " + line.dropFirst("slate: ".count) }
            write(line)
        case .json:
            var object: [String: Any] = ["time": Self.timestamp(), "level": level, "event": event]
            for (key, value) in fields { object[key] = value }
            write(Self.json(object))
        }
    }

    /// Writes a request line: the text form is `AccessLog`'s `GET /path 200 12B 0.8ms`; the
    /// JSON form also names the client's address (the proxy's client behind a trusted proxy).
    func request(method: String, path: String, client: String, status: Int, size: String, milliseconds: Double) {
        switch format {
        case .text:
            write("\(method) \(path) \(status) \(size) \(Self.tenths(milliseconds))ms")
        case .json:
            write(Self.json(["time": Self.timestamp(), "level": "info", "event": "request", "method": method, "path": path, "client": client,
                             "status": status, "size": size, "ms": (milliseconds * 10).rounded() / 10]))
        }
    }

    /// `12.3`: one decimal, as `String(format: "%.1f")` writes it, without CoreFoundation's
    /// format parser (1% of a served GET's CPU time).
    static func tenths(_ value: Double) -> String {
        guard value.isFinite, value >= 0, value < 1e15 else { return String(format: "%.1f", value) }
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func textValue(_ value: Any) -> String {
        let text = "\(value)"
        return text.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) || text.isEmpty
            ? "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            : text
    }

    private static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{\"event\":\"unencodable log line\"}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}

import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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
    /// Where an event line goes, at once.
    private let write: @Sendable (String) -> Void
    /// Where a request line goes: `write`, or on standard error a batch (`LineBatch`).
    private let writeRequest: @Sendable (String) -> Void

    /// A log in `format` that writes request lines at `requestLevel` to standard error.
    ///
    /// Request lines are written in batches: a line waits at most 50 ms for others to go in
    /// the same `write`, so that a busy server does not spend a system call on each request
    /// (4% of a served GET's CPU time). An event line (start, stop, reload, an error) is
    /// written at once, after the request lines before it. A process killed outright loses
    /// at most the last 50 ms of request lines; the data is not in the log.
    public convenience init(format: Format = .text, requestLevel: AccessLog.Level = .all) {
        let batch = LineBatch(fileDescriptor: 2, delay: .milliseconds(50))
        self.init(format: format, requestLevel: requestLevel, write: { batch.append($0, now: true) },
                  writeRequest: { batch.append($0, now: false) })
    }

    /// A log in `format` that writes request lines at `requestLevel` and hands each line
    /// (without its newline) to `write`, as it is made.
    public convenience init(format: Format = .text, requestLevel: AccessLog.Level = .all,
                            write: @escaping @Sendable (String) -> Void) {
        self.init(format: format, requestLevel: requestLevel, write: write, writeRequest: write)
    }

    private init(format: Format, requestLevel: AccessLog.Level, write: @escaping @Sendable (String) -> Void,
                 writeRequest: @escaping @Sendable (String) -> Void) {
        settings = Mutex(Settings(format: format, requestLevel: requestLevel))
        self.write = write
        self.writeRequest = writeRequest
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
            writeRequest("\(method) \(path) \(status) \(size) \(Self.tenths(milliseconds))ms")
        case .json:
            writeRequest(Self.json(["time": Self.timestamp(), "level": "info", "event": "request", "method": method, "path": path, "client": client,
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

/// Lines for a file descriptor, written in batches: a line appended without `now` waits at
/// most `delay` for others to join it in one `write`; a line appended with `now` is written
/// at once with every line before it. Writes happen in order, under the batch's lock.
final class LineBatch: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        var isFlushScheduled = false
    }

    private let fileDescriptor: Int32
    private let delay: DispatchTimeInterval
    private let pending = Mutex(Pending())
    /// A batch this long is written without waiting.
    private static let limit = 64 * 1024

    init(fileDescriptor: Int32, delay: DispatchTimeInterval) {
        self.fileDescriptor = fileDescriptor
        self.delay = delay
    }

    func append(_ line: String, now: Bool) {
        let schedules = pending.withLock { pending in
            pending.bytes.append(contentsOf: line.utf8)
            pending.bytes.append(0x0A)
            if now || pending.bytes.count >= Self.limit {
                write(&pending)
                return false
            }
            if pending.isFlushScheduled { return false }
            pending.isFlushScheduled = true
            return true
        }
        guard schedules else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            pending.withLock { write(&$0) }
        }
    }

    /// Writes what is pending (all of it, across short writes) and empties it.
    private func write(_ pending: inout Pending) {
        pending.isFlushScheduled = false
        var written = 0
        pending.bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(fileDescriptor, buffer.baseAddress! + written, buffer.count - written)
                if count > 0 {
                    written += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return  // A closed or full descriptor: the lines are dropped, as a failed print would be.
                }
            }
        }
        pending.bytes.removeAll(keepingCapacity: true)
    }
}

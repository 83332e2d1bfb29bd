import Foundation

/// Writes one line per request: method, path, status, body bytes and milliseconds.
///
/// ```
/// GET /api/v1/tasks 200 1532B 0.8ms
/// GET /events 200 stream 0.2ms
/// ```
///
/// The time is until the response is ready (for a stream, until it starts). The query is
/// left out, since it may carry tokens. Put it first so that it sees the final response.
public struct AccessLog: Middleware {
    /// Which requests get a line.
    public enum Level: Sendable {
        /// Every request.
        case all
        /// Requests answered with a status of 400 or more, and errors.
        case errors
        /// None.
        case off
    }

    /// Which requests are logged (the log's ``ServiceLog/requestLevel``).
    public var level: Level { lines.requestLevel }
    private let lines: ServiceLog

    /// Logs at `level` through `write`, which gets each line without its newline; standard
    /// error by default.
    public init(level: Level = .all, write: @escaping @Sendable (String) -> Void = AccessLog.standardError) {
        self.lines = ServiceLog(format: .text, requestLevel: level, write: write)
    }

    /// Logs through `log`, in its format (text or JSON) and at its request level.
    public init(log: ServiceLog) {
        self.lines = log
    }

    /// Writes `line` and a newline to standard error in one call, so lines from concurrent
    /// requests do not interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    public func handle(_ request: Request, next: Handler) async throws -> Response {
        let level = self.level
        guard level != .off else { return try await next(request) }
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let response = try await next(request)
            log(request, response.status, Self.size(of: response), started.duration(to: clock.now))
            return response
        } catch let error as HTTPError {
            log(request, error.status, Self.size(of: error.response), started.duration(to: clock.now))
            throw error
        } catch {
            log(request, .internalServerError, "-", started.duration(to: clock.now))
            throw error
        }
    }

    private func log(_ request: Request, _ status: HTTPStatus, _ size: String, _ elapsed: Duration) {
        let level = self.level
        guard level == .all || status.code >= 400 else { return }
        let (seconds, attoseconds) = elapsed.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        lines.request(method: request.method.rawValue, path: request.path, client: request.remoteAddress, status: status.code, size: size, milliseconds: milliseconds)
    }

    private static func size(of response: Response) -> String {
        switch response.body {
        case .data(let data): "\(data.count)B"
        case .file(_, let length): "\(length)B"
        case .stream, .channel: "stream"
        }
    }
}

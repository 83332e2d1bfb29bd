import Foundation
import SlateCore
import SlateHTTP

/// The API's last word on errors. A domain error becomes its status and code (the table
/// in `SlateError.httpError`); anything else (a store failure, an unexpected throw)
/// answers 500 with a generic message and a request id, and its details (which may hold
/// SQL, file paths or SQLite's own words) go to the server's log only, under that id.
struct ErrorBoundary: Middleware {
    static let genericMessage = "The server could not complete the request."
    /// Where the details go; standard error by default.
    let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.log = log
    }

    func handle(_ request: Request, next: Handler) async throws -> Response {
        do {
            return try await next(request)
        } catch let error as HTTPError {
            throw error
        } catch is CancellationError where Task.isCancelled {
            throw CancellationError()
        } catch let error as SlateError where !error.isInternal {
            throw error.httpError
        } catch let error where SlateError.transient(error) != nil {
            // The database is locked or cannot be reached (a node that lost it): 503, not 500.
            throw SlateError.transient(error)!.httpError
        } catch {
            let id = Self.requestID()
            log("slate: request \(id) \(request.method) \(request.path) failed: \(error)")
            var http = HTTPError(.internalServerError, code: "internal_error", message: "\(Self.genericMessage) (request id \(id))")
            http.details = JSONSerialization.body(["requestId": id])
            http.headers["X-Request-Id"] = id
            throw http
        }
    }

    /// Eight random hexadecimal digits: enough to find the line in the log.
    static func requestID() -> String {
        String(UInt32.random(in: .min ... .max), radix: 16).leftPadded(to: 8)
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}

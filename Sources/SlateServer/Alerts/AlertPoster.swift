import CCurl
import Dispatch
import Foundation
import Synchronization

/// The HTTP POSTs of the webhook and Web Push channels, made with libcurl (loaded on the
/// first one: `slate` is not linked against it, see CCurl.h).
///
/// Connections are kept between POSTs: a send takes an idle libcurl handle (or opens one)
/// and gives it back when done, so a service that receives many alerts (a browser maker's
/// push service) is reached over one kept-open TLS connection per concurrent send. At most
/// as many handles exist as the channel sends at once; each runs its blocking transfer on
/// a Dispatch thread, never on Swift's cooperative pool.
final class AlertPoster: Sendable {
    /// Idle handles, reused most recently used first (the likeliest to have a live connection).
    private let idle = Mutex<[CurlHandle]>([])
    private let queue = DispatchQueue(label: "slate.alerts.http", attributes: .concurrent)
    private let timeoutSeconds: Int

    init(timeoutSeconds: Int = 15) {
        self.timeoutSeconds = timeoutSeconds
    }

    deinit {
        for handle in idle.withLock({ $0 }) { slate_curl_close(handle.pointer) }
    }

    /// POSTs `body` to `url` with `headers` (name, value) and returns the HTTP status; throws
    /// `AlertPostFailure` when no answer came (no connection, a timeout, libcurl missing).
    /// The URL goes to libcurl as Foundation writes it, with what must be percent-encoded
    /// encoded (libcurl refuses a space in a path, which URLSession used to encode).
    func post(_ target: URL, headers: [(String, String)], body: [UInt8]) async throws -> Int {
        let url = target.absoluteString
        let lines = headers.map { "\($0.0): \($0.1)\n" }.joined()
        let timeout = timeoutSeconds
        let handle = idle.withLock { $0.popLast() } ?? CurlHandle(pointer: slate_curl_open())
        let (code, status, reason) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int32, Int, String), Never>) in
            queue.async {
                var error = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
                var status = 0
                let code = body.withUnsafeBytes { bytes in
                    slate_http_post(handle.pointer, url, lines, bytes.baseAddress, bytes.count, timeout, &error, &status)
                }
                continuation.resume(returning: (code, status, String(cBuffer: error)))
            }
        }
        if handle.pointer != nil { idle.withLock { $0.append(handle) } }
        guard code == Int32(CURLE_OK.rawValue) else { throw AlertPostFailure(code: Int(code), reason: reason) }
        return status
    }
}

/// A libcurl easy handle moved between threads.
///
/// `@unchecked Sendable`: a handle is either in `AlertPoster.idle` (behind its mutex) or
/// taken by exactly one send, which alone uses it until it puts it back.
struct CurlHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
}

/// A POST that got no HTTP answer (retried by the scheduler).
struct AlertPostFailure: Error, CustomStringConvertible {
    let code: Int
    let reason: String
    var description: String { "no HTTP answer (curl \(code)): \(reason)" }
}

extension String {
    /// The text of a NUL-terminated buffer that C code wrote into (an error message).
    init(cBuffer: [CChar]) {
        self.init(decoding: cBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

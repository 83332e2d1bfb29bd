import CMicroHTTPD
import Foundation
import Synchronization

/// The library's pointer to one connection.
///
/// `@unchecked Sendable` because it is only an address handed back to libmicrohttpd: the
/// one call made with it off the library's own threads is `MHD_resume_connection`, which
/// the library documents as thread-safe, and ``ConnectionRegistry`` makes that call only
/// while the connection is suspended — a suspended connection is never freed.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// One request's state between the library's calls: created when the request line
/// arrives (URI log callback), kept behind `*con_cls` with a retain, released in the
/// completed callback.
///
/// The library calls back for one connection on one thread at a time, but the handler's
/// Task finishes on another thread, so every mutable field is behind a lock.
final class Exchange: Sendable {
    enum Phase {
        /// Headers and body are still arriving.
        case receiving
        /// A response went out before the body (413); later calls are ignored.
        case rejected
        /// The responder works (the connection is suspended once it waits).
        case waiting
        /// The responder answered; the connection is resumed (or, answered before it was
        /// suspended, not suspended at all) to send this.
        case answered(Response)
        /// The response is queued with the library; nothing is left to do.
        case queued
    }

    struct State {
        var headersSeen = false
        var method = HTTPMethod.get
        var headers = HTTPHeaders()
        var remoteAddress = ""
        var body = Data()
        var phase = Phase.receiving
        /// Set once the connection is suspended: until then an answer is only left here.
        var suspended = false
        /// The responder's Task, for shutdown to cancel.
        var task: Task<Void, Never>?
    }

    /// The request target exactly as sent: path and query, not yet percent-decoded.
    let target: String
    let connection: ConnectionHandle
    let state = Mutex(State())

    init(target: String, connection: ConnectionHandle) {
        self.target = target
        self.connection = connection
    }

    /// The request, once the whole body is in.
    func makeRequest() -> Request {
        state.withLock { state in
            let (path, query) = Request.split(target: target)
            return Request(method: state.method, path: path, query: query,
                           headers: state.headers, body: state.body, remoteAddress: state.remoteAddress)
        }
    }
}

extension Exchange {
    /// Reads the method, header fields and client address from the library (first call).
    static func readHead(of connection: OpaquePointer, method: UnsafePointer<CChar>?) -> (HTTPMethod, HTTPHeaders, String) {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, { cls, _, key, value in
                guard let cls, let key else { return .YES }
                let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
                headers.pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
                return .YES
            }, pointer)
        }
        var buffer = [CChar](repeating: 0, count: 64)
        let address = buffer.withUnsafeMutableBufferPointer { buffer in
            slate_mhd_client_address(connection, buffer.baseAddress, socklen_t(buffer.count)) == 0
                ? String(cString: buffer.baseAddress!) : ""
        }
        let methodName = method.map { String(cString: $0) } ?? "GET"
        return (HTTPMethod(rawValue: methodName), headers, address)
    }
}

import CMicroHTTPD
import Foundation

extension ServerCore {
    private enum Step {
        case proceed
        case reject(HTTPError)
        case respond
        case queue(Response)
    }

    /// The access handler. The library calls it once when the headers are in, once per
    /// piece of body, once with no data when the request is complete, and once more after
    /// each resume. It never waits for Swift concurrency: it suspends the connection and
    /// returns.
    func access(connection: OpaquePointer, method: UnsafePointer<CChar>?, upload: UnsafePointer<CChar>?,
                uploadSize: UnsafeMutablePointer<Int>, exchange: Exchange) -> MHD_Result {
        let limit = configuration.maxBodySize
        let step: Step = exchange.state.withLock { state in
            if !state.headersSeen {
                state.headersSeen = true
                watch.headersArrived(connection)
                (state.method, state.headers, state.remoteAddress) = Exchange.readHead(of: connection, method: method)
                if !configuration.trustedProxies.isEmpty {
                    state.remoteAddress = configuration.trustedProxies.clientAddress(
                        peer: state.remoteAddress, forwardedFor: state.headers.values("X-Forwarded-For"))
                }
                if let problem = RequestFraming.problem(in: state.headers) {
                    state.phase = .rejected
                    return .reject(problem)
                }
                if let declared = state.headers["Content-Length"].flatMap(Int.init) {
                    guard declared <= limit else {
                        state.phase = .rejected
                        return .reject(Self.tooLarge(limit))
                    }
                    state.body.reserveCapacity(declared)
                }
                return .proceed
            }
            let size = uploadSize.pointee
            if size > 0 {
                uploadSize.pointee = 0
                guard case .receiving = state.phase, let upload else { return .proceed }
                // Chunked bodies have no declared length: count as they arrive.
                guard state.body.count + size <= limit else {
                    state.phase = .rejected
                    state.body = Data()
                    return .reject(Self.tooLarge(limit))
                }
                state.body.append(UnsafeRawPointer(upload).assumingMemoryBound(to: UInt8.self), count: size)
                return .proceed
            }
            switch state.phase {
            case .receiving:
                state.phase = .waiting
                return .respond
            case .answered(let response):
                state.phase = .queued
                return .queue(response)
            case .rejected, .waiting, .queued:
                return .proceed
            }
        }
        switch step {
        case .proceed:
            return .YES
        case .reject(let error):
            // Before the body: the library answers without reading it and closes. During a
            // chunked body the library may refuse a response; then the connection is dropped.
            return queue(error.response, on: connection)
        case .respond:
            watch.requestReceived(connection)
            switch start(exchange) {
            case .answered(let response):
                return queue(response, on: connection)
            case .suspended:
                return .YES
            case .closing:
                exchange.state.withLock { $0.phase = .queued }
                return queue(Self.unavailable, on: connection)
            }
        case .queue(let response):
            return queue(response, on: connection)
        }
    }

    static func tooLarge(_ limit: Int) -> HTTPError {
        var error = HTTPError(.contentTooLarge, code: "body_too_large",
                              message: "The request body is larger than \(limit) bytes.", field: "body")
        error.headers["Connection"] = "close"
        return error
    }

    /// Hands a response to the library for this connection.
    func queue(_ response: Response, on connection: OpaquePointer) -> MHD_Result {
        var response = response
        if draining.load(ordering: .acquiring) { response.headers["Connection"] = "close" }
        guard let (libraryResponse, status) = makeLibraryResponse(response, connection: connection) else {
            return .NO
        }
        let result = MHD_queue_response(connection, UInt32(status), libraryResponse)
        MHD_destroy_response(libraryResponse)
        return result
    }
}

import CMicroHTTPD
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServerCore {
    /// Header fields the library writes itself; a copy from the response would conflict.
    private static func isLibraryOwned(_ name: String) -> Bool {
        HTTPHeaders.sameName(name, "Content-Length") || HTTPHeaders.sameName(name, "Transfer-Encoding")
    }

    /// Turns a ``Response`` into a library response (one reference, for the caller to
    /// destroy after queueing) and the status code to send.
    func makeLibraryResponse(_ response: Response, connection: OpaquePointer) -> (OpaquePointer, Int)? {
        var status = response.status.code
        var headers = response.headers
        let made: OpaquePointer?
        switch response.body {
        case .data(let data):
            made = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                                .RESPMEM_MUST_COPY)
            }
        case .file(let path, let length):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0, let fileResponse = MHD_create_response_from_fd64(UInt64(max(0, length)), descriptor) {
                made = fileResponse  // the library closes the descriptor with the response
            } else {
                if descriptor >= 0 { close(descriptor) }
                let error = HTTPError(.notFound, code: "not_found", message: "The file is no longer there.")
                status = error.status.code
                headers = error.response.headers
                let body = error.response.bodyData ?? Data()
                made = body.withUnsafeBytes { bytes in
                    MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                                    .RESPMEM_MUST_COPY)
                }
            }
        case .stream(let chunks):
            made = makeStreamResponse(.sequence(chunks), headers: headers, connection: connection)
        case .channel(let channel):
            made = makeStreamResponse(.channel(channel), headers: headers, connection: connection)
        }
        guard let made else { return nil }
        for (name, value) in headers where !Self.isLibraryOwned(name) {
            _ = MHD_add_response_header(made, name, value)
        }
        return (made, status)
    }

    /// A response of unknown length fed by a pump from `source`, registered and started;
    /// an event stream also gets heartbeats and its client's hang-up watched.
    private func makeStreamResponse(_ source: StreamPump.Source, headers: HTTPHeaders, connection: OpaquePointer) -> OpaquePointer? {
        let isEventStream = headers["Content-Type"]?.lowercased().hasPrefix("text/event-stream") ?? false
        let pump = StreamPump(source: source, connection: ConnectionHandle(pointer: connection),
                              wantsHeartbeats: isEventStream, core: self)
        guard let made = makeLibraryStream(pump) else {
            source.terminate()
            return nil
        }
        pump.start(ended: !register(pump))
        // A client that goes is noticed now, not by the next event or heartbeat.
        if isEventStream { watch.watchHangUp(connection) { pump.clientWentAway() } }
        return made
    }

    /// A response of unknown length whose chunks come from `pump`. The pump is retained
    /// for the library and released by the free callback when the library is done with it.
    private func makeLibraryStream(_ pump: StreamPump) -> OpaquePointer? {
        let context = Unmanaged.passRetained(pump).toOpaque()
        let response = MHD_create_response_from_callback(
            slate_mhd_size_unknown(), 16 << 10,
            { cls, _, buffer, capacity in
                guard let cls, let buffer else { return slate_mhd_end_with_error() }
                return Unmanaged<StreamPump>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
            },
            context,
            { cls in
                guard let cls else { return }
                let pump = Unmanaged<StreamPump>.fromOpaque(cls).takeRetainedValue()
                pump.released()
            })
        if response == nil { Unmanaged<StreamPump>.fromOpaque(context).release() }
        return response
    }
}

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
        case .data(let data) where data.count >= Self.sharedBodyBytes:
            made = Self.sharedBody(data)
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
            // `withCString`: a short string (most header names and many values) is handed over
            // from the stack; passed as an argument it was copied into a new array first.
            _ = name.withCString { name in value.withCString { value in MHD_add_response_header(made, name, value) } }
        }
        return (made, status)
    }

    /// From this size a body is handed to the library in place instead of copied (a
    /// calendar-query of 10,000 objects is 6 MB: the copy, and the fresh pages it needs,
    /// cost as much as writing the answer's last fifth).
    static let sharedBodyBytes = 64 << 10

    /// The body itself as the library's response buffer: kept alive by a box that the
    /// library releases when it frees the response (after the last byte was sent, or when
    /// the connection went away). A body this large lives in heap storage of its own, which
    /// the box's unmutated `Data` neither moves nor frees while the box lives.
    private static func sharedBody(_ data: Data) -> OpaquePointer? {
        let box = Unmanaged.passRetained(SharedBody(data))
        let buffer = box.takeUnretainedValue().data.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        let made = MHD_create_response_from_buffer_with_free_callback_cls(data.count, buffer, { context in
            if let context { Unmanaged<SharedBody>.fromOpaque(context).release() }
        }, box.toOpaque())
        if made == nil { box.release() }
        return made
    }

    /// A response's body while the library sends it (`sharedBody`).
    private final class SharedBody {
        let data: Data
        init(_ data: Data) { self.data = data }
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

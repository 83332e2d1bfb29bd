import Foundation
import SlateHTTP
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs blocking socket work on a thread of its own. Not on the cooperative pool, nor on
/// Dispatch's global queues: both have about as many threads as cores, and the server
/// needs them — `Task.sleep` in a handler resumes through a Dispatch timer, so clients
/// blocked in `recv` there would stall the very server they wait for.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.start()
    }
}

struct RawClientError: Error, CustomStringConvertible {
    var description: String
}

/// A response as read off the wire.
struct RawResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A plain TCP client for exact bytes: what URLSession cannot send (a Content-Length with
/// no body, custom methods with bodies, a request on a known connection). Every read has an
/// upper bound (`timeout`) so a test can fail but never hang.
final class RawConnection: Sendable {
    let descriptor: Int32
    private let pending = Mutex<[UInt8]>([])

    /// Connects to 127.0.0.1:`port`, from `source` (another loopback address such as
    /// 127.0.3.7, to look like another client) when given.
    init(port: Int, timeout: TimeInterval = 10, from source: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawClientError(description: "socket failed: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(descriptor)
                throw RawClientError(description: "bind to \(source) failed: \(String(cString: strerror(errno)))")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw RawClientError(description: "connect failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws { try send(Data(text.utf8)) }

    func send(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw RawClientError(description: "send failed: \(String(cString: strerror(errno)))") }
                offset += sent
            }
        }
    }

    /// Reads more bytes into the pending buffer; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count < 0 { throw RawClientError(description: "read failed or timed out: \(String(cString: strerror(errno)))") }
        if count == 0 { return false }
        pending.withLock { $0.append(contentsOf: chunk[0..<count]) }
        return true
    }

    private func take(_ count: Int) -> [UInt8] {
        pending.withLock { buffer in
            defer { buffer.removeFirst(count) }
            return Array(buffer[0..<count])
        }
    }

    /// One line without its CRLF.
    func readLine() throws -> String {
        while true {
            let end = pending.withLock { buffer in buffer.indices.dropLast().first { buffer[$0] == 13 && buffer[$0 + 1] == 10 } }
            if let end { return String(decoding: take(end + 2).dropLast(2), as: UTF8.self) }
            guard try fill() else { throw RawClientError(description: "connection closed mid-line") }
        }
    }

    func readExactly(_ count: Int) throws -> Data {
        while pending.withLock({ $0.count }) < count {
            guard try fill() else { throw RawClientError(description: "connection closed mid-body") }
        }
        return Data(take(count))
    }

    /// The status line and header fields.
    func readHead() throws -> (status: Int, headers: HTTPHeaders) {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw RawClientError(description: "bad status line: \(statusLine)") }
        var headers = HTTPHeaders()
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return (status, headers)
    }

    /// The next chunk of a chunked body; nil for the final, empty chunk.
    func readChunk() throws -> Data? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw RawClientError(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            _ = try readLine()
            return nil
        }
        let data = try readExactly(size)
        _ = try readLine()
        return data
    }

    /// A whole response; `hasBody: false` for HEAD and 304.
    func readResponse(hasBody: Bool = true) throws -> RawResponse {
        let (status, headers) = try readHead()
        guard hasBody, status != 304, status != 204 else { return RawResponse(status: status, headers: headers, body: Data()) }
        if let length = headers["Content-Length"].flatMap({ Int($0) }) {
            return RawResponse(status: status, headers: headers, body: try readExactly(length))
        }
        if headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            var body = Data()
            while let chunk = try readChunk() { body.append(chunk) }
            return RawResponse(status: status, headers: headers, body: body)
        }
        var body = Data(take(pending.withLock { $0.count }))
        while try fill() { body.append(Data(take(pending.withLock { $0.count }))) }
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// True when nothing at all (no bytes, no close) arrives within `milliseconds`. Only a
    /// misbehaving server can make this false, so a slow machine cannot fail a test with it.
    func hearsNothing(forMilliseconds milliseconds: Int32) -> Bool {
        guard pending.withLock({ $0.isEmpty }) else { return false }
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) == 0
    }

    /// True when the server closed the connection (end of stream or reset) before sending
    /// anything more.
    func isClosedByServer() throws -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
        if count < 0 { throw RawClientError(description: "read failed or timed out: \(String(cString: strerror(errno)))") }
        return false
    }
}

extension RawConnection {
    /// Sends one request and reads its response.
    func exchange(_ request: String, hasBody: Bool = true) throws -> RawResponse {
        try send(request)
        return try readResponse(hasBody: hasBody)
    }
}

extension RawConnection {
    /// Reads chunks until the text received contains `marker`; returns all of it.
    func readChunks(until marker: String) throws -> String {
        var text = ""
        while !text.contains(marker) {
            guard let chunk = try readChunk() else { throw RawClientError(description: "stream ended before \(marker.debugDescription): \(text.debugDescription)") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// Reads chunks until the final one; returns what they carried.
    func readToEndOfStream() throws -> String {
        var text = ""
        while let chunk = try readChunk() { text += String(decoding: chunk, as: UTF8.self) }
        return text
    }
}

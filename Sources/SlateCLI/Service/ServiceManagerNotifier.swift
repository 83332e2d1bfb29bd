import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells systemd how a `Type=notify` service is doing: the `sd_notify` protocol, which is
/// one datagram of `KEY=value` lines to the AF_UNIX socket named by `$NOTIFY_SOCKET`
/// (a path, or `@name` for the abstract namespace). Without the variable it does nothing,
/// so the same binary runs under systemd and in a terminal.
struct ServiceManagerNotifier: Sendable {
    /// The socket's address, or nil when not started by a service manager.
    let socketPath: String?

    init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The service is ready: it listens and the database is open.
    func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    /// The service is reloading its configuration; `ready` follows.
    func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())") }
    /// The service is shutting down.
    func stopping() { send("STOPPING=1") }

    /// Sends `message` as one datagram; returns false when there is no socket or it failed.
    @discardableResult
    func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        #if os(Linux)
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        // "@name" is Linux's abstract namespace: a leading NUL byte instead of the "@".
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
        return sent == bytes.count
    }

    static func monotonicMicroseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }
}

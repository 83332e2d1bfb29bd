import CMicroHTTPD
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running libmicrohttpd daemon and the callbacks that lead into ``ServerCore``.
///
/// The callbacks are `@convention(c)` closure literals: they capture nothing and find the
/// core through the `cls` pointer, which stays valid because the daemon is stopped before
/// the core is released.
struct LibraryDaemon {
    let pointer: OpaquePointer
    let port: Int
    /// The TLS certificate and key as C strings the library reads, wiped and freed in `stop`.
    private let tlsStrings: [UnsafeMutablePointer<CChar>]

    /// Binds and starts the network threads.
    init(core: ServerCore) throws(HTTPServerError) {
        let configuration = core.configuration
        // libmicrohttpd is loaded here, not linked into every `slate` command (CMicroHTTPD.h).
        var loadError = [CChar](repeating: 0, count: 256)
        guard slate_mhd_load(&loadError, loadError.count) == 1 else {
            throw HTTPServerError(String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        #if os(Linux)
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        #else
        // No epoll elsewhere: let the library choose (kqueue is not used; poll or select).
        var flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        #endif
        var tlsStrings: [UnsafeMutablePointer<CChar>] = []
        if let tls = configuration.tls {
            guard slate_mhd_supports_tls() != 0 else { throw HTTPServerError("This libmicrohttpd was built without TLS.") }
            tlsStrings = [tls.certificatePEM, tls.keyPEM].map { pem in
                let bytes = UnsafeMutablePointer<CChar>.allocate(capacity: pem.count + 1)
                _ = pem.copyBytes(to: UnsafeMutableRawBufferPointer(start: bytes, count: pem.count).bindMemory(to: UInt8.self))
                bytes[pem.count] = 0
                return bytes
            }
        }
        let limits = slate_mhd_limits(
            thread_pool_size: UInt32(clamping: configuration.threadPoolSize),
            connection_memory_limit: configuration.maxHeaderSize + HTTPServer.Configuration.bufferAllowance,
            connection_timeout: HTTPServer.Configuration.wholeSeconds(configuration.idleTimeout),
            per_ip_connection_limit: UInt32(clamping: configuration.connectionsPerIP),
            connection_limit: UInt32(clamping: configuration.maxConnections),
            tls_certificate: tlsStrings.first.map { UnsafePointer($0) }, tls_key: tlsStrings.last.map { UnsafePointer($0) })
        guard let port = UInt16(exactly: configuration.port) else {
            throw HTTPServerError("The port \(configuration.port) is not between 0 and 65535.")
        }
        Self.raiseDescriptorLimit(toAtLeast: configuration.maxConnections + 256)
        let cls = Unmanaged.passUnretained(core).toOpaque()
        let daemon: OpaquePointer?
        if configuration.host.contains(":") {
            flags |= MHD_USE_IPv6.rawValue
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, configuration.host, &address.sin6_addr) == 1 else {
                throw HTTPServerError("The host \(configuration.host) is not an IPv6 address.")
            }
            daemon = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.start(flags, $0, port, cls, limits) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, configuration.host, &address.sin_addr) == 1 else {
                throw HTTPServerError("The host \(configuration.host) is not an IPv4 address.")
            }
            daemon = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.start(flags, $0, port, cls, limits) }
            }
        }
        guard let daemon else {
            Self.wipe(tlsStrings)
            if configuration.tls != nil {
                throw HTTPServerError("Could not start TLS on \(configuration.host):\(configuration.port): check that the certificate and key are PEM and belong together (or the address is in use).")
            }
            throw HTTPServerError("Could not listen on \(configuration.host):\(configuration.port): \(String(cString: strerror(errno))).")
        }
        self.pointer = daemon
        self.tlsStrings = tlsStrings
        self.port = Int(slate_mhd_bound_port(daemon))
    }

    private static func start(_ flags: UInt32, _ address: UnsafePointer<sockaddr>, _ port: UInt16,
                              _ cls: UnsafeMutableRawPointer, _ limits: slate_mhd_limits) -> OpaquePointer? {
        slate_mhd_start(
            flags, address, port,
            { cls, connection, _, method, _, upload, uploadSize, context in
                guard let cls, let connection, let uploadSize, let context, let raw = context.pointee else { return .NO }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
                return core.access(connection: connection, method: method, upload: upload,
                                   uploadSize: uploadSize, exchange: exchange)
            }, cls,
            { cls, uri, connection in
                // Called with the raw request target before the library decodes it; what it
                // returns becomes `*con_cls`, released in the completed callback.
                guard let cls, let connection else { return nil }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                let target = uri.map { String(cString: $0) } ?? "/"
                return Unmanaged.passRetained(core.begin(target: target, connection: connection)).toOpaque()
            }, cls,
            { cls, _, context, _ in
                guard let cls, let context, let raw = context.pointee else { return }
                context.pointee = nil
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                core.complete(Unmanaged<Exchange>.fromOpaque(raw).takeRetainedValue())
            }, cls,
            { cls, connection, _, code in
                guard let cls, let connection else { return }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                if code.rawValue == 0 /* MHD_CONNECTION_NOTIFY_STARTED */ { core.watch.opened(connection) } else { core.watch.closed(connection) }
            }, cls,
            limits)
    }

    /// Raises the soft limit on open files towards `needed` (within the hard limit): a
    /// default of 1024 would run out before `maxConnections` does, and then the library
    /// cannot accept even the connection that eviction made room for.
    static func raiseDescriptorLimit(toAtLeast needed: Int) {
        #if os(Linux)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(needed) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(needed))
        _ = setrlimit(resource, &limit)
    }

    /// Stops accepting connections: later connection attempts are refused at once.
    /// Returns a descriptor to close after `stop` (see `slate_mhd_stop_listening`, which
    /// does this without MHD_quiesce_daemon: that call can abort the process in 0.9.75).
    func quiesce() -> Int32 {
        let leftOver = slate_mhd_stop_listening(pointer)
        if leftOver >= 0 { return leftOver }
        // Not possible here (no descriptor to spare): the library's own way.
        let socket = MHD_quiesce_daemon(pointer)
        #if canImport(Glibc)
        if socket >= 0 { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
        #else
        if socket >= 0 { _ = Darwin.shutdown(socket, SHUT_RDWR) }
        #endif
        return socket
    }

    /// Stops the threads and closes every connection. No connection may be suspended.
    /// `listeningSocket` is what `quiesce` returned, closed once the library is stopped.
    func stop(listeningSocket: Int32) {
        MHD_stop_daemon(pointer)
        if listeningSocket >= 0 { close(listeningSocket) }
        Self.wipe(tlsStrings)
    }

    /// Overwrites and frees the copies of the certificate and key.
    private static func wipe(_ strings: [UnsafeMutablePointer<CChar>]) {
        for string in strings {
            let length = strlen(string)
            for index in 0..<length { string[index] = 0 }
            string.deallocate()
        }
    }
}

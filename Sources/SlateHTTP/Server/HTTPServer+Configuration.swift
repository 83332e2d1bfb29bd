import Foundation

extension HTTPServer {
    /// How a server listens and what it tolerates. Every limit has a default that suits a
    /// small self-hosted service; all of them can be changed.
    ///
    /// ```swift
    /// var configuration = HTTPServer.Configuration()
    /// configuration.port = 8080
    /// configuration.maxBodySize = 4 << 20
    /// ```
    public struct Configuration: Sendable {
        /// The address to bind: an IPv4 or IPv6 literal. Loopback unless told otherwise.
        public var host: String = "127.0.0.1"
        /// The port to bind; 0 picks a free one (read it back from ``HTTPServer/port``).
        public var port: Int = 0
        /// Threads that run the network loop. Handlers start on them only until they first
        /// wait, and only while few connections are open (``startsInPlaceUnderLoad``), so
        /// a small pool suffices; 1 means one internal thread, no pool. On two cores, 2
        /// measured best (4 was half as fast: the threads compete with the cooperative pool
        /// that runs the handlers).
        public var threadPoolSize: Int = 2
        /// Where a responder starts while many connections are open. With a few (at most 8)
        /// it starts on the network thread that received its request, and a responder that
        /// never waits answers there: no thread is woken, the connection is never suspended
        /// (a client alone, such as a phone syncing, gets its answers sooner). With more, by
        /// default, it starts on Swift's pool, first come first served, and the network
        /// threads only read and write: a responder that runs to its end on a network
        /// thread (a short read on SQLite) keeps the other connections of that thread
        /// waiting (with the server on one core under 32 connections, the slowest list
        /// pages took 10–17 ms against 8–12 ms). True starts it in place under load too,
        /// which saves a hand-off where every responder waits for the database almost at
        /// once (PostgreSQL: a round trip per statement).
        public var startsInPlaceUnderLoad = false
        /// The largest request body accepted. A larger `Content-Length` is answered 413
        /// before the body is read; a chunked body is counted as it arrives.
        public var maxBodySize: Int = 1 << 20
        /// The room for the request line and header fields; past it the library answers 431.
        /// The per-connection memory given to the library is this plus room for buffers.
        public var maxHeaderSize: Int = 8 << 10
        /// A connection that sends nothing for this long is closed. Suspended connections
        /// (a handler still working, a stream waiting for its next event) do not time out.
        public var idleTimeout: Duration = .seconds(60)
        /// A new connection's first request head (request line and header fields) must be
        /// in within this, however slowly it trickles; then the connection is closed.
        public var headerTimeout: Duration = .seconds(10)
        /// A request's body must be in within this of the end of its head (a 1 MiB body at
        /// 20 KiB/s), however slowly it trickles; then the connection is closed.
        public var bodyTimeout: Duration = .seconds(60)
        /// Simultaneous connections from one client address; 0 is unlimited.
        public var connectionsPerIP: Int = 64
        /// Simultaneous connections in total. With a thread pool the library divides this
        /// between its threads, each refusing past its share. Past three quarters of it,
        /// each new connection closes the oldest one that is waiting for a request (idle or
        /// still sending its head), so slow and idle clients cannot crowd out a fresh one.
        public var maxConnections: Int = 1024
        /// Reverse proxies whose `X-Forwarded-For` names the client: a request from one of
        /// them gets the right-most untrusted hop as its ``Request/remoteAddress``. Empty: the
        /// header is ignored and the peer's address is the client's.
        public var trustedProxies = TrustedProxies()
        /// How often an idle Server-Sent Events stream gets a `: keepalive` comment. The
        /// heartbeat is also how a stream notices that its client went away.
        public var sseHeartbeat: Duration = .seconds(15)
        /// How long ``HTTPServer/shutdown()`` waits for requests in flight before it answers
        /// the rest 503 and stops.
        public var shutdownGracePeriod: Duration = .seconds(10)

        /// Serve HTTPS with this certificate (PEM, the chain after the leaf) and key (PEM);
        /// both nil serves plain HTTP. See ``TLSIdentity``.
        public var tls: TLSIdentity? = nil

        /// The defaults: 127.0.0.1, a free port, 1 MiB bodies, 8 KiB headers.
        public init() {}

        /// A configuration for `host:port` with the default limits.
        public init(host: String = "127.0.0.1", port: Int) {
            self.host = host
            self.port = port
        }

        /// Room the library needs beyond the headers: its read buffer and the response head.
        static let bufferAllowance = 8 << 10

        /// Whole seconds for the library, rounding up so that a short timeout never becomes 0
        /// (which means "never").
        static func wholeSeconds(_ duration: Duration) -> UInt32 {
            let (seconds, attoseconds) = duration.components
            guard seconds >= 0 else { return 1 }
            let rounded = seconds + (attoseconds > 0 ? 1 : 0)
            return UInt32(clamping: max(1, rounded))
        }
    }
}

/// Why a server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for people.
    public var message: String

    /// An error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

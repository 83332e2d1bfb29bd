// sse-client: bench/server's Server-Sent Events fan-out, measured by a compiled client.
//
// Opens N event streams (`GET /api/v1/events`, each waiting for its `hello`), sends one
// PATCH and stamps, per stream, the moment its `change` event is read; then closes every
// stream, times how long the server takes to let go of them (its open descriptors, from
// /proc), opens N fresh ones and does it again. One thread, non-blocking sockets, one
// epoll set: reading a stream's event costs this client a few microseconds, where the
// asyncio client it replaces spent tens of them per stream in Python, on the same two
// cores as the server, and stamped an arrival only when its task got to run.
//
//   sse-client --port P --token T --streams N --path /api/v1/tasks/ID
//              --first JSON --second JSON [--server-pid PID] [--timeout S]
//
// Prints one JSON object: {"first": {...}, "second": {...}, "closed_streams_released_ms": x},
// the shape bench.py's asyncio client returned, plus the server's CPU over each fan-out.
import CEventPoll
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct Options {
    var port: UInt16 = 0
    var token = ""
    var streams = 10_000
    var path = ""
    var bodies: [String] = []
    var serverPID: Int32?
    var timeout: Double = 15

    init(_ arguments: [String]) {
        var rest = arguments[...]
        func value(_ name: String) -> String {
            guard let next = rest.popFirst() else { fail("\(name) needs a value") }
            return next
        }
        var first = "", second = ""
        while let argument = rest.popFirst() {
            switch argument {
            case "--port": port = UInt16(value(argument)) ?? 0
            case "--token": token = value(argument)
            case "--streams": streams = Int(value(argument)) ?? 0
            case "--path": path = value(argument)
            case "--first": first = value(argument)
            case "--second": second = value(argument)
            case "--server-pid": serverPID = Int32(value(argument))
            case "--timeout": timeout = Double(value(argument)) ?? 15
            default: fail("unknown argument \(argument)")
            }
        }
        guard port > 0, streams > 0, !path.isEmpty, !first.isEmpty, !second.isEmpty else {
            fail("usage: sse-client --port P --token T --streams N --path PATH --first JSON --second JSON [--server-pid PID] [--timeout S]")
        }
        bodies = [first, second]
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("sse-client: \(message)\n".utf8))
    exit(2)
}

/// Seconds on the monotonic clock.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
    bytes.firstRange(of: Array(needle.utf8)) != nil
}

/// A connected, non-blocking loopback socket with `request` sent on it.
func connectAndSend(port: UInt16, _ request: [UInt8]) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(socket)
        throw Failure("connect: errno \(errno)")
    }
    var noDelay: Int32 = 1
    setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    let sent = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == request.count else {
        close(socket)
        throw Failure("send: errno \(errno)")
    }
    _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    return socket
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One epoll set over the streams (and, during a fan-out, the PATCH's connection).
final class Poller {
    let poller = event_poll_create()
    var tags = [UInt64](repeating: 0, count: 1024)
    var buffer = [UInt8](repeating: 0, count: 16_384)

    func watch(_ socket: Int32, tag: Int) { _ = event_poll_add(poller, socket, UInt64(tag)) }

    func forget(_ socket: Int32) { _ = event_poll_remove(poller, socket) }

    /// Waits up to `milliseconds` and calls `ready` with each ready tag.
    func wait(milliseconds: Int32, _ ready: (Int) -> Void) {
        let count = event_poll_wait(poller, &tags, Int32(tags.count), milliseconds)
        for index in 0..<max(0, Int(count)) { ready(Int(tags[index])) }
    }

    /// What one read of `socket` gave: nil at its end or on an error other than "nothing yet".
    func read(_ socket: Int32) -> ArraySlice<UInt8>? {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 { return buffer[0..<count] }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return [] }
        return nil
    }
}

struct Stream {
    let socket: Int32
    var received: [UInt8] = []
    var arrival: Double?
}

/// Opens `count` streams, 100 at a time (inside the listen backlog), each waiting for its
/// hello; returns the streams, the failures and the seconds it took.
func openStreams(_ options: Options, _ poller: Poller) -> (streams: [Stream], failures: [String], seconds: Double) {
    let request = Array(
        ("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(options.port)\r\nAccept: text/event-stream\r\n"
            + "Authorization: Bearer \(options.token)\r\n\r\n").utf8)
    var streams: [Stream] = []
    var failures: [String] = []
    let started = now()
    func drop(_ stream: Stream, _ why: String) {
        failures.append(why)
        poller.forget(stream.socket)
        close(stream.socket)
    }
    var start = 0
    while start < options.streams {
        let batch = start..<min(options.streams, start + 100)
        var pending: [Int: Stream] = [:]  // by tag: the index the stream will have once open
        for _ in batch {
            do {
                let socket = try connectAndSend(port: options.port, request)
                let tag = streams.count + pending.count
                pending[tag] = Stream(socket: socket)
                poller.watch(socket, tag: tag)
            } catch {
                failures.append("\(error)")
            }
        }
        var opened: [Int: Stream] = [:]
        let deadline = now() + options.timeout
        while !pending.isEmpty, now() < deadline {
            poller.wait(milliseconds: 100) { tag in
                guard var stream = pending.removeValue(forKey: tag) else { return }
                guard let bytes = poller.read(stream.socket) else {
                    return drop(stream, "closed before hello: \(String(decoding: stream.received.prefix(200), as: UTF8.self))")
                }
                stream.received += bytes
                guard let hello = stream.received.firstRange(of: Array("event: hello".utf8)),
                    stream.received[hello.upperBound...].firstRange(of: Array("\n\n".utf8)) != nil
                else { return pending[tag] = stream }
                let status = Array(stream.received.prefix { $0 != UInt8(ascii: "\r") })
                guard contains(status, " 200 ") else { return drop(stream, String(decoding: status, as: UTF8.self)) }
                stream.received = []
                opened[tag] = stream
            }
        }
        for stream in pending.values { drop(stream, "no hello within \(options.timeout) s") }
        // Tags were handed out as indices; a failure in the batch shifts the ones after it.
        for tag in opened.keys.sorted() {
            let stream = opened[tag]!
            if tag != streams.count {
                poller.forget(stream.socket)
                poller.watch(stream.socket, tag: streams.count)
            }
            streams.append(stream)
        }
        start = batch.upperBound
    }
    return (streams, failures, now() - started)
}

/// The server's user + system CPU in seconds, from /proc.
func serverCPU(_ pid: Int32?) -> Double? {
    guard let pid, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

func percentile(_ sorted: [Double], _ p: Double) -> Double? {
    guard !sorted.isEmpty else { return nil }
    return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count - 1)).rounded()))]
}

/// One PATCH; per stream, the moment its `change` event was read, against the end of the
/// PATCH's response. The PATCH's connection is in the same epoll set, so neither waits on
/// the other.
func fanOut(_ options: Options, _ poller: Poller, _ streams: inout [Stream], body: String) -> [String: Any] {
    usleep(500_000)  // the server idle, every stream sitting in its buffer
    let bytes = Array(body.utf8)
    let request = Array(
        ("PATCH \(options.path) HTTP/1.1\r\nHost: 127.0.0.1:\(options.port)\r\nAuthorization: Bearer \(options.token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n").utf8) + bytes
    let cpuBefore = serverCPU(options.serverPID)
    let sent = now()
    guard let commit = try? connectAndSend(port: options.port, request) else { fail("the PATCH could not be sent") }
    let commitTag = Int.max >> 1
    poller.watch(commit, tag: commitTag)
    var response: [UInt8] = []
    var answered: Double?
    var waiting = streams.count
    let deadline = sent + options.timeout
    while (waiting > 0 || answered == nil), now() < deadline {
        poller.wait(milliseconds: 50) { tag in
            if tag == commitTag {
                guard answered == nil else { return }
                if let read = poller.read(commit) {
                    response += read
                } else {
                    answered = now()
                    poller.forget(commit)
                }
                return
            }
            guard streams[tag].arrival == nil else {
                _ = poller.read(streams[tag].socket)  // a heartbeat after the change: drained
                return
            }
            guard let read = poller.read(streams[tag].socket) else {
                poller.forget(streams[tag].socket)
                streams[tag].arrival = .nan  // closed without the change
                waiting -= 1
                return
            }
            let at = now()
            streams[tag].received += read
            if contains(streams[tag].received, "event: change") {
                streams[tag].arrival = at
                waiting -= 1
            }
        }
    }
    let cpuAfter = serverCPU(options.serverPID)
    close(commit)
    let end = answered ?? now()
    let arrivals = streams.compactMap(\.arrival).filter { !$0.isNaN }
    let delays = arrivals.map { ($0 - end) * 1000 }.sorted()
    let fromSent = arrivals.map { ($0 - sent) * 1000 }.sorted()
    let status = String(decoding: response.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    var result: [String: Any] = [
        "streams": streams.count, "commit_status": status, "commit_round_trip_ms": (end - sent) * 1000,
        "received": delays.count, "within_100ms": delays.count(where: { $0 <= 100 }),
        "within_200ms": delays.count(where: { $0 <= 200 }),
        "delay_after_response_ms": [
            "min": percentile(delays, 0) as Any, "p50": percentile(delays, 50) as Any,
            "p99": percentile(delays, 99) as Any, "max": percentile(delays, 100) as Any,
        ],
        "delay_after_send_ms": [
            "p50": percentile(fromSent, 50) as Any, "p99": percentile(fromSent, 99) as Any,
            "max": percentile(fromSent, 100) as Any,
        ],
    ]
    if let cpuBefore, let cpuAfter { result["server_cpu_ms"] = (cpuAfter - cpuBefore) * 1000 }
    return result
}

func openDescriptors(_ pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
var limit = rlimit()
getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
limit.rlim_cur = limit.rlim_max
setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)

let poller = Poller()
var output: [String: Any] = [:]
for (phase, body) in zip(["first", "second"], options.bodies) {
    var (streams, failures, seconds) = openStreams(options, poller)
    var result = fanOut(options, poller, &streams, body: body)
    result["requested"] = options.streams
    result["opened"] = streams.count
    result["open_failures"] = failures.count
    result["failure_examples"] = Array(failures.prefix(5))
    result["open_seconds"] = seconds
    output[phase] = result
    // Every stream closed by the client; how long until the server's descriptors show them gone.
    let descriptorsOpen = options.serverPID.map(openDescriptors)
    let closedAt = now()
    for stream in streams {
        poller.forget(stream.socket)
        close(stream.socket)
    }
    if phase == "first", let pid = options.serverPID, let descriptorsOpen {
        var released: Double?
        while now() - closedAt < 5 {
            if openDescriptors(pid) <= descriptorsOpen - Int(0.99 * Double(streams.count)) {
                released = (now() - closedAt) * 1000
                break
            }
            usleep(5_000)
        }
        output["closed_streams_released_ms"] = released as Any
    }
}
output["client"] = "sse-client (epoll, one thread)"
let json = try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys])
FileHandle.standardOutput.write(json + Data("\n".utf8))

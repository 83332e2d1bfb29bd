import Foundation
import Synchronization

/// Counters, gauges and latency histograms, rendered in the Prometheus text format
/// (version 0.0.4) for `GET /metrics`.
///
/// ```swift
/// let metrics = MetricsRegistry()
/// router.use(RequestMetrics(registry: metrics, routes: router.routeTable.map(\.pattern)))
/// metrics.addGauge("slate_database_bytes", help: "Bytes on disk.") { Double(size()) }
/// metrics.render()   // # HELP slate_http_requests_total …
/// ```
///
/// Labels come from route patterns, methods and status codes only, never from paths or
/// queries, so the number of series stays bounded whatever clients send.
public final class MetricsRegistry: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    public static let latencyBuckets: [Double] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Histogram {
        var counts = [Int](repeating: 0, count: MetricsRegistry.latencyBuckets.count)
        var sum = 0.0
        var total = 0
    }

    struct Series {
        var requests: [[String]: Int] = [:]        // [route, method, status]
        var latencies: [[String]: Histogram] = [:] // [route, method]
        var openStreams = 0
        var streamsOpened = 0
    }

    struct Sampled {
        var name: String
        var help: String
        var type: String
        var value: @Sendable () -> Double
    }

    private let series = Mutex(Series())
    private let sampled = Mutex<[Sampled]>([])
    private let families = Mutex<[Family]>([])

    /// A counter with labels, all its series read when the metrics are rendered.
    struct Family {
        var name: String
        var help: String
        var series: @Sendable () -> [(labels: [(String, String)], value: Double)]
    }

    public init() {}

    /// Adds a gauge read when the metrics are rendered.
    public func addGauge(_ name: String, help: String, value: @escaping @Sendable () -> Double) {
        sampled.withLock { $0.append(Sampled(name: name, help: help, type: "gauge", value: value)) }
    }

    /// Adds a counter (a value that only grows) read when the metrics are rendered.
    public func addCounter(_ name: String, help: String, value: @escaping @Sendable () -> Double) {
        sampled.withLock { $0.append(Sampled(name: name, help: help, type: "counter", value: value)) }
    }

    /// Adds a counter with labels (`name{label="value",…}`), its series read when the
    /// metrics are rendered. Label values are escaped; keep their number bounded.
    public func addCounters(_ name: String, help: String,
                            series: @escaping @Sendable () -> [(labels: [(String, String)], value: Double)]) {
        families.withLock { $0.append(Family(name: name, help: help, series: series)) }
    }

    /// Counts one answered request.
    func record(route: String, method: String, status: Int, seconds: Double) {
        series.withLock { series in
            series.requests[[route, method, String(status)], default: 0] += 1
            var histogram = series.latencies[[route, method]] ?? Histogram()
            for (index, bound) in Self.latencyBuckets.enumerated() where seconds <= bound { histogram.counts[index] += 1 }
            histogram.sum += seconds
            histogram.total += 1
            series.latencies[[route, method]] = histogram
        }
    }

    func streamOpened() { series.withLock { $0.openStreams += 1; $0.streamsOpened += 1 } }
    func streamClosed() { series.withLock { $0.openStreams -= 1 } }

    /// Event streams open right now.
    public var openStreams: Int { series.withLock { $0.openStreams } }

    /// Everything, in the Prometheus text exposition format.
    public func render() -> String {
        let snapshot = series.withLock { $0 }
        var text = "# HELP slate_http_requests_total Requests answered, by route pattern, method and status.\n"
        text += "# TYPE slate_http_requests_total counter\n"
        for (key, count) in snapshot.requests.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            text += "slate_http_requests_total{route=\"\(Self.escape(key[0]))\",method=\"\(key[1])\",status=\"\(key[2])\"} \(count)\n"
        }
        text += "# HELP slate_http_request_duration_seconds Time until the response was ready, by route pattern and method.\n"
        text += "# TYPE slate_http_request_duration_seconds histogram\n"
        for (key, histogram) in snapshot.latencies.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let labels = "route=\"\(Self.escape(key[0]))\",method=\"\(key[1])\""
            for (index, bound) in Self.latencyBuckets.enumerated() {
                text += "slate_http_request_duration_seconds_bucket{\(labels),le=\"\(Self.number(bound))\"} \(histogram.counts[index])\n"
            }
            text += "slate_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(histogram.total)\n"
            text += "slate_http_request_duration_seconds_sum{\(labels)} \(Self.number(histogram.sum))\n"
            text += "slate_http_request_duration_seconds_count{\(labels)} \(histogram.total)\n"
        }
        text += "# HELP slate_http_open_event_streams Server-Sent Events streams open now.\n"
        text += "# TYPE slate_http_open_event_streams gauge\n"
        text += "slate_http_open_event_streams \(snapshot.openStreams)\n"
        text += "# HELP slate_http_event_streams_opened_total Server-Sent Events streams opened since the start.\n"
        text += "# TYPE slate_http_event_streams_opened_total counter\n"
        text += "slate_http_event_streams_opened_total \(snapshot.streamsOpened)\n"
        for metric in sampled.withLock({ $0 }) {
            text += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.type)\n"
            text += "\(metric.name) \(Self.number(metric.value()))\n"
        }
        for family in families.withLock({ $0 }) {
            text += "# HELP \(family.name) \(family.help)\n# TYPE \(family.name) counter\n"
            for (labels, value) in family.series() {
                let rendered = labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",")
                text += "\(family.name){\(rendered)} \(Self.number(value))\n"
            }
        }
        return text
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func escape(_ label: String) -> String {
        label.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}

/// Records every request in a ``MetricsRegistry``: a count by route pattern, method and
/// status, a latency histogram, and the number of open event streams. Put it first, as
/// ``AccessLog``, so that it sees the final response.
public struct RequestMetrics: Middleware {
    let registry: MetricsRegistry
    /// Each route's segments and its label, rendered once here rather than per request.
    let routes: [(segments: [Router.Segment], label: String)]

    /// Labels requests with the first of `routes` (patterns such as `/api/v1/tasks/:id`)
    /// that matches, `static` for other successful GETs (the web app's files) and
    /// `unmatched` for the rest.
    public init(registry: MetricsRegistry, routes: [String]) {
        self.registry = registry
        // Most specific first, as the router picks them.
        self.routes = routes.map(Router.segments).sorted { Router.literalCount($0) > Router.literalCount($1) }.map { pattern in
            (pattern, "/" + pattern.map { segment -> String in
                switch segment {
                case .literal(let text): text
                case .parameter(let name): ":" + name
                case .rest(let name): "*" + name
                }
            }.joined(separator: "/"))
        }
    }

    public func handle(_ request: Request, next: Handler) async throws -> Response {
        let clock = ContinuousClock()
        let started = clock.now
        let status: Int
        var response: Response
        do {
            response = try await next(request)
            status = response.status.code
        } catch let error as HTTPError {
            record(request, error.status.code, started.duration(to: clock.now))
            throw error
        } catch {
            record(request, 500, started.duration(to: clock.now))
            throw error
        }
        record(request, status, started.duration(to: clock.now))
        if response.headers["Content-Type"]?.hasPrefix("text/event-stream") == true {
            switch response.body {
            case .stream(let chunks): response.body = .stream(counted(chunks))
            case .channel(let channel):
                let registry = self.registry
                registry.streamOpened()
                channel.onTermination { registry.streamClosed() }
            case .data, .file: break
            }
        }
        return response
    }

    private func record(_ request: Request, _ status: Int, _ elapsed: Duration) {
        let (seconds, attoseconds) = elapsed.components
        registry.record(route: route(of: request, status: status), method: request.method.rawValue, status: status,
                        seconds: Double(seconds) + Double(attoseconds) / 1e18)
    }

    func route(of request: Request, status: Int) -> String {
        let path = request.path.split(separator: "/").map(String.init)
        if let route = routes.first(where: { Router.match($0.segments, path) != nil }) { return route.label }
        return (request.method == .get || request.method == .head) && status < 400 ? "static" : "unmatched"
    }

    /// The same chunks, counted as one open stream until the client goes or the stream ends.
    private func counted(_ chunks: AsyncStream<Data>) -> AsyncStream<Data> {
        let registry = self.registry
        registry.streamOpened()
        return AsyncStream { continuation in
            let relay = Task {
                for await chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                relay.cancel()
                registry.streamClosed()
            }
        }
    }
}

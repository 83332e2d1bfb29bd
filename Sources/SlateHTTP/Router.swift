import Foundation

/// Anything that answers requests: a router, a middleware chain, a single handler.
public protocol Responder: Sendable {
    func respond(to request: Request) async throws -> Response
}

/// A handler closure.
public typealias Handler = @Sendable (Request) async throws -> Response

/// Middleware wraps the rest of the chain: it may change the request, answer early, or
/// change the response.
public protocol Middleware: Sendable {
    func handle(_ request: Request, next: Handler) async throws -> Response
}

/// Routes by method and path pattern (`/api/v1/tasks/:id`, `/static/*`), with middleware.
///
/// Unknown paths answer 404 and known paths with another method 405, both as JSON errors.
public struct Router: Responder {
    struct Route: Sendable {
        let method: HTTPMethod
        let segments: [Segment]
        let handler: Handler
        /// How many segments are literal: the more, the more specific.
        let literalCount: Int
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// Matches the rest of the path (at least one segment).
        case rest(String)
    }

    private var routes: [Route] = []
    private var middleware: [any Middleware] = []

    public init() {}

    /// Adds a route. `pattern` segments starting with `:` capture one segment; a final `*name`
    /// captures the rest.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        let segments = Self.segments(pattern)
        routes.append(Route(method: method, segments: segments, handler: handler, literalCount: Self.literalCount(segments)))
    }

    /// Adds middleware; the first added runs first.
    public mutating func use(_ middleware: any Middleware) { self.middleware.append(middleware) }

    /// Every route as (method, pattern), for documentation checks.
    public var routeTable: [(method: HTTPMethod, pattern: String)] {
        routes.map { route in
            let path = route.segments.map { segment -> String in
                switch segment {
                case .literal(let text): text
                case .parameter(let name): ":" + name
                case .rest(let name): "*" + name
                }
            }
            return (route.method, "/" + path.joined(separator: "/"))
        }
    }

    public func respond(to request: Request) async throws -> Response {
        let chain = middleware.reversed().reduce({ @Sendable request in try await self.dispatch(request) } as Handler) { next, middleware in
            { @Sendable request in try await middleware.handle(request, next: next) }
        }
        do {
            return try await chain(request)
        } catch let error as HTTPError {
            return error.response
        }
    }

    private func dispatch(_ request: Request) async throws -> Response {
        // The request's segments as `segments` reads them: parts that look like a pattern's
        // `:name` or `*name` are not literal, so they match nothing.
        // Split on bytes, not Characters (a tenth of a kept task's GET went to walking
        // graphemes here and in the target): `/`, `:` and `*` are ASCII.
        let path = Self.literalSegments(of: request.path)
        // A literal segment wins over a parameter: `/tasks/batch` is not the task `batch`,
        // so a method `/tasks/batch` lacks answers 405 even though `/tasks/:id` has it.
        // Parameters are read for the route that answers only: a mount's routes (one per
        // method, each ending in `*rest`) each joined the rest of the path again.
        let matching = routes.filter { Self.matches($0.segments, path) }
        let specificity = matching.map(\.literalCount).max() ?? 0
        var allowed: [HTTPMethod] = []
        for route in matching where route.literalCount == specificity {
            guard route.method == request.method || (request.method == .head && route.method == .get) else {
                allowed.append(route.method)
                continue
            }
            var request = request
            request.parameters = Self.match(route.segments, path) ?? [:]
            return try await route.handler(request)
        }
        if !allowed.isEmpty {
            let allow = Set(allowed.map(\.rawValue)).sorted().joined(separator: ", ")
            throw HTTPError(.methodNotAllowed, code: "method_not_allowed",
                            message: "\(request.method) is not allowed on \(request.path); use \(allow).", headers: ["Allow": allow])
        }
        throw HTTPError(.notFound, code: "not_found", message: "Nothing is at \(request.path).")
    }

    /// The non-empty segments of `path` between slashes, but those that begin with `:` or
    /// `*`. Found on the bytes of the path in one pass: the standard library's generic
    /// `split` over a `String.UTF8View` cost every request about 4,600 instructions.
    static func literalSegments(of path: String) -> [String] {
        var path = path
        return path.withUTF8 { bytes in
            var segments: [String] = []
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                if index > start, bytes[start] != UInt8(ascii: ":"), bytes[start] != UInt8(ascii: "*") {
                    segments.append(String(decoding: UnsafeBufferPointer(start: bytes.baseAddress! + start, count: index - start), as: UTF8.self))
                }
                start = index + 1
            }
            return segments
        }
    }

    static func literalCount(_ segments: [Segment]) -> Int {
        segments.filter { if case .literal = $0 { true } else { false } }.count
    }

    static func segments(_ pattern: String) -> [Segment] {
        pattern.split(separator: "/").map { part in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*") { return .rest(String(part.dropFirst())) }
            return .literal(String(part))
        }
    }

    /// True when `match(pattern, path)` is not nil, found without reading the parameters.
    /// It walks the pattern as `match` does, on purpose apart: one walk for both, reading
    /// parameters only when asked, cost a single task's GET 3.5% more instructions
    /// (callgrind, 200 GETs: 36.3M → 37.6M), every route tried paying for it.
    static func matches(_ pattern: [Segment], _ path: [String]) -> Bool {
        if case .rest = pattern.last {} else if pattern.count != path.count { return false }
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < path.count, path[index] == text else { return false }
            case .parameter:
                guard index < path.count else { return false }
            case .rest:
                return index < path.count
            }
        }
        return pattern.count == path.count
    }

    static func match(_ pattern: [Segment], _ path: [String]) -> [String: String]? {
        // Without a final `*rest`, the lengths must agree: checked before decoding anything.
        if case .rest = pattern.last {} else if pattern.count != path.count { return nil }
        var parameters: [String: String] = [:]
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < path.count, path[index] == text else { return nil }
            case .parameter(let name):
                guard index < path.count else { return nil }
                // Foundation's decoding bridges through NSString; most segments have nothing to decode.
                let text = path[index]
                parameters[name] = text.utf8.contains(UInt8(ascii: "%")) ? text.removingPercentEncoding ?? text : text
            case .rest(let name):
                guard index < path.count else { return nil }
                parameters[name] = path[index...].joined(separator: "/")
                return parameters
            }
        }
        return pattern.count == path.count ? parameters : nil
    }
}

import Foundation

/// One HTTP request, with its whole body.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The path without the query, percent-decoded segments are not decoded here.
    public var path: String
    /// Query parameters in order; a name may repeat.
    public var query: [(name: String, value: String)]
    public var headers: HTTPHeaders
    public var body: Data
    /// The client's address, for rate limits and logs.
    public var remoteAddress: String
    /// Values captured by the route pattern (`/tasks/:id` → `["id": "…"]`).
    public var parameters: [String: String] = [:]

    public init(method: HTTPMethod, path: String, query: [(name: String, value: String)] = [], headers: HTTPHeaders = [:],
                body: Data = Data(), remoteAddress: String = "127.0.0.1") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// Builds a request from a target such as `/api/v1/tasks?list=a&limit=50`.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: Data = Data()) {
        let (path, query) = Self.split(target: target)
        self.init(method: method, path: path, query: query, headers: headers, body: body)
    }

    /// `/tasks?list=a` → ("/tasks", [("list", "a")]); an empty path is `/`.
    static func split(target: String) -> (path: String, query: [(name: String, value: String)]) {
        // On bytes: walking a target by Characters cost more than answering a kept task
        // (callgrind), and `?` is ASCII.
        let mark = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        let path = mark.map { String(target[..<$0]) } ?? target
        let query = mark.map { parseQuery(String(target[target.utf8.index(after: $0)...])) } ?? []
        return (path.isEmpty ? "/" : path, query)
    }

    /// The last value of query parameter `name`.
    public func queryValue(_ name: String) -> String? { query.last { $0.name == name }?.value }

    /// `a=1&b=x%20y` → [("a","1"), ("b","x y")]; `+` is a space.
    public static func parseQuery(_ text: String) -> [(name: String, value: String)] {
        text.utf8.split(separator: UInt8(ascii: "&")).compactMap { bytes in
            let pair = Substring(bytes)
            func decode(_ part: Substring) -> String {
                // Foundation's replacing and decoding bridge through NSString: only when needed.
                guard part.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(part) }
                return String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            let equals = pair.utf8.firstIndex(of: UInt8(ascii: "="))
            let name = equals.map { pair[..<$0] } ?? pair
            guard !name.isEmpty else { return nil }
            return (decode(name), equals.map { decode(pair[pair.utf8.index(after: $0)...]) } ?? "")
        }
    }
}

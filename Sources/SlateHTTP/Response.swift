import Foundation

/// An HTTP response: a whole body, a file, or a stream of chunks (Server-Sent Events).
public struct Response: Sendable {
    public enum Body: Sendable {
        case data(Data)
        /// A file sent with sendfile; `length` bytes.
        case file(path: String, length: Int)
        /// Chunks produced until the stream ends; the connection stays open meanwhile and
        /// each chunk is sent as it comes. When the client goes away the stream's consumer is
        /// cancelled (its `onTermination` runs). With `Content-Type: text/event-stream` the
        /// server adds heartbeats; see ``Response/eventStream(_:status:)``.
        case stream(AsyncStream<Data>)
        /// Chunks written by their producer as they come (``StreamChannel``): the same as
        /// `stream` on the wire, without a task per stream. The server keeps heartbeats
        /// for `text/event-stream` the same way.
        case channel(StreamChannel)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body = .data(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a UTF-8 text body.
    public static func text(_ text: String, status: HTTPStatus = .ok, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: .data(Data(text.utf8)))
    }

    /// A JSON response from already-encoded bytes.
    public static func json(_ data: Data, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .data(data))
    }

    /// The body bytes, for whole-body responses (nil for files and streams).
    public var bodyData: Data? {
        if case .data(let data) = body { return data }
        return nil
    }
}

/// An error that knows its HTTP status and renders as
/// `{"error": {"code": "...", "message": "...", "field": "..."}}`.
public struct HTTPError: Error, Sendable, Equatable {
    public var status: HTTPStatus
    /// A stable machine-readable code, such as `invalid_field` or `not_found`.
    public var code: String
    /// A sentence for people.
    public var message: String
    /// The input field the error is about, if any.
    public var field: String?
    /// Extra headers (WWW-Authenticate, Retry-After, ETag).
    public var headers: HTTPHeaders = [:]
    /// Extra members of the error object (for example the current version on a 412).
    public var details: Data? = nil

    public init(_ status: HTTPStatus, code: String, message: String, field: String? = nil, headers: HTTPHeaders = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers
    }

    /// The JSON response for this error.
    public var response: Response {
        var error: [String: Any] = ["code": code, "message": message]
        if let field { error["field"] = field }
        if let details, let object = try? JSONSerialization.jsonObject(with: details) as? [String: Any] {
            for (key, value) in object { error[key] = value }
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["error": error], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var response = Response.json(data, status: status)
        for (name, value) in headers { response.headers.add(name, value) }
        return response
    }
}

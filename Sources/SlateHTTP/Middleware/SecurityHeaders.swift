import Foundation

/// Adds the header fields that keep a browser from doing what a web app never wants:
/// running injected inline script, guessing types, leaking the URL in `Referer`, being
/// framed by another site.
///
/// Each field can be changed or turned off (`nil`); a field the response already has is
/// left as it is, so one route can loosen a policy for itself. Error responses get the
/// fields too.
///
/// ```swift
/// var headers = SecurityHeaders()
/// headers.contentSecurityPolicy = "default-src 'self'; img-src 'self' data:"
/// router.use(headers)
/// ```
public struct SecurityHeaders: Middleware {
    /// `Content-Security-Policy`. The default allows scripts, styles and connections to
    /// this origin only — no inline script — and forbids framing.
    public var contentSecurityPolicy: String? =
        "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    /// `X-Content-Type-Options`.
    public var contentTypeOptions: String? = "nosniff"
    /// `Referrer-Policy`.
    public var referrerPolicy: String? = "no-referrer"
    /// `X-Frame-Options`, for browsers older than `frame-ancestors`.
    public var frameOptions: String? = "DENY"
    /// Further fields to add, such as `Strict-Transport-Security` behind TLS.
    public var additional: HTTPHeaders = [:]

    /// The defaults above.
    public init() {}

    /// The fields this middleware adds, in order.
    public var fields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if let contentSecurityPolicy { fields.append(("Content-Security-Policy", contentSecurityPolicy)) }
        if let contentTypeOptions { fields.append(("X-Content-Type-Options", contentTypeOptions)) }
        if let referrerPolicy { fields.append(("Referrer-Policy", referrerPolicy)) }
        if let frameOptions { fields.append(("X-Frame-Options", frameOptions)) }
        fields.append(contentsOf: additional.map { ($0.name, $0.value) })
        return fields
    }

    public func handle(_ request: Request, next: Handler) async throws -> Response {
        var response: Response
        do {
            response = try await next(request)
        } catch let error as HTTPError {
            response = error.response
        }
        for (name, value) in fields where response.headers[name] == nil {
            response.headers[name] = value
        }
        return response
    }
}

import Foundation
import SlateCore
import SlateHTTP

/// Domain errors as HTTP errors in the one JSON shape: the one table from a domain error
/// to a status. Codes are `SlateError.code`; an internal failure never shows its details.
extension SlateError {
    var httpError: HTTPError {
        switch self {
        case .invalid(let field, let message):
            HTTPError(.unprocessableContent, code: code, message: message, field: Self.apiFieldName(field))
        case .notFound(let what):
            HTTPError(.notFound, code: code, message: description.isEmpty ? "No \(what)." : description)
        case .ambiguous:
            HTTPError(.unprocessableContent, code: code, message: description)
        case .duplicateListName:
            HTTPError(.conflict, code: code, message: description, field: "name")
        case .conflict(_, let revision):
            HTTPError(.preconditionFailed, code: code, message: description, headers: ["ETag": ETag.revision(revision)])
        case .cannotUndo(let message):
            HTTPError(.conflict, code: code, message: message, field: "change")
        case .busy:
            HTTPError(.serviceUnavailable, code: code, message: description, headers: ["Retry-After": "1"])
        case .unavailable:
            // The details name the database server: for the log and /readyz, not for clients.
            HTTPError(.serviceUnavailable, code: code, message: SlateError.unavailableMessage, headers: ["Retry-After": "2"])
        case .store:
            HTTPError(.internalServerError, code: code, message: ErrorBoundary.genericMessage)
        }
    }
}

extension SlateError {
    /// The API's name for a domain field: the domain says `parentID`, JSON says `parentId`.
    static func apiFieldName(_ field: String) -> String {
        field.hasSuffix("ID") ? field.dropLast(2) + "Id" : field
    }
}

/// Runs domain code, turning its errors into HTTP errors. An internal failure passes
/// through untouched, for `ErrorBoundary` to log and answer without its details.
func domain<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SlateError where !error.isInternal {
        throw error.httpError
    }
}

/// Checks that the id given in `field` (a body field or query parameter) names something
/// of this account: a 404 that names the field otherwise.
func reference(_ field: String, _ lookup: () throws -> Void) throws {
    do {
        try lookup()
    } catch let error as SlateError where !error.isInternal {
        var http = error.httpError
        if case .notFound = error { http.field = field }
        throw http
    }
}

/// Strong ETags from store revisions: `"r42"`.
enum ETag {
    static func revision(_ revision: Int) -> String { "\"r\(revision)\"" }

    /// The revision named by `If-Match`, nil when the header is absent or `*`; a 412 when
    /// it is not one of ours (it cannot match anything).
    static func expectedRevision(_ request: Request) throws -> Int? {
        guard let header = request.headers["If-Match"]?.trimmingHTTPWhitespace, header != "*" else { return nil }
        let tag = header.hasPrefix("W/") ? String(header.dropFirst(2)) : header
        guard tag.hasPrefix("\"r"), tag.hasSuffix("\""), let revision = Int(tag.dropFirst(2).dropLast()) else {
            throw HTTPError(.preconditionFailed, code: "stale", message: "If-Match \(header) matches no version of this resource.")
        }
        return revision
    }
}

import Foundation

/// Checks of a request's head that libmicrohttpd 0.9.75 does not make (its strict mode
/// already refuses an HTTP/1.1 request without `Host`). Each is a way two parsers — a
/// proxy's and this server's — could disagree on where a request ends, which is how a
/// second request is smuggled inside the first; all are refused with 400 and the
/// connection is closed.
enum RequestFraming {
    /// Why the head is refused, or nil when its framing is unambiguous.
    static func problem(in headers: HTTPHeaders) -> HTTPError? {
        // On the bytes: walking a name's Characters cost a single GET 4,500 instructions.
        for (name, _) in headers where name.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
            return refuse("The header name '\(name)' contains white space; send 'Name: value' with no space before the colon.", field: name)
        }
        let lengths = headers.values("Content-Length")
            .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map(\.trimmingHTTPWhitespace)
        let transferEncodings = headers.values("Transfer-Encoding")
        if !lengths.isEmpty, !transferEncodings.isEmpty {
            return refuse("Send either Content-Length or Transfer-Encoding, not both.", field: "Transfer-Encoding")
        }
        if let bad = lengths.first(where: { $0.isEmpty || !$0.allSatisfy(\.isASCII) || !$0.allSatisfy(\.isNumber) }) {
            return refuse("Content-Length must be a number of bytes; got '\(bad)'.", field: "Content-Length")
        }
        if Set(lengths).count > 1 {
            return refuse("The request has more than one Content-Length (\(lengths.joined(separator: ", "))); send one.", field: "Content-Length")
        }
        let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingHTTPWhitespace.lowercased() }
        if !codings.isEmpty, codings != ["chunked"] {
            return refuse("Transfer-Encoding must be 'chunked'; got '\(transferEncodings.joined(separator: ", "))'.", field: "Transfer-Encoding")
        }
        return nil
    }

    private static func refuse(_ message: String, field: String) -> HTTPError {
        HTTPError(.badRequest, code: "bad_framing", message: message, field: field, headers: ["Connection": "close"])
    }
}

import Foundation
import SlateHTTP

/// An input read as a request in HTTP's own layout, so that corpus files read like requests:
///
///     PATCH /api/v1/tasks/00000000-0000-4000-8000-000000000011?x=1
///     Content-Type: application/json
///     If-Match: "3"
///
///     {"title": "Mix the trailer"}
///
/// The first line is the method and target, header lines follow until an empty line, and
/// the rest is the body, built the way the server's `Exchange` builds it. Nothing is refused
/// here: a missing method or target becomes GET or `/`.
struct FuzzRequest {
    let request: Request

    init(_ data: Data) {
        let bytes = [UInt8](data)
        var lines: [String] = []
        var index = 0
        var bodyStart = bytes.count
        while index < bytes.count {
            let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
            var line = bytes[index..<end]
            if line.last == 0x0D { line = line.dropLast() }
            index = end + 1
            if line.isEmpty && !lines.isEmpty { bodyStart = min(index, bytes.count); break }
            lines.append(String(decoding: line, as: UTF8.self))
        }
        let requestLine = (lines.first ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        let method = HTTPMethod(rawValue: requestLine.first ?? "GET")
        let target = requestLine.count > 1 && !requestLine[1].isEmpty ? requestLine[1] : "/"
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        request = Request(method: method, target: target, headers: headers, body: Data(bytes[bodyStart...]))
    }
}

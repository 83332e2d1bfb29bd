import Foundation
import FuzzSupport
import SlateHTTP

// The whole server in-process, REST API and CalDAV: the router's matching and
// percent-decoding, query strings (TaskQueryParameters, cursors, `since`, `format`), JSON
// bodies, quick entry, import and export, undo, batches; DAV methods with XML bodies and
// VTODO resources. A 5xx answer is a finding like a crash: bad input must get a 4xx that
// names what is wrong. The event stream (endless) is left out.
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    let request = FuzzRequest(FuzzInput.data(start, count)).request
    if request.path.split(separator: "/").last == "events" { return 0 }
    let board: Board
    do { board = try Board.next() } catch { fatalError("the fuzz board could not be set up: \(error)") }
    let response = waitFor { try? await board.server.respond(to: request) }
    guard let response else { fatalError("\(request.method) \(request.path) threw instead of answering") }
    if response.status.code >= 500 {
        let body = response.bodyData.map { String(decoding: $0, as: UTF8.self) } ?? ""
        fatalError("\(request.method) \(request.path) answered \(response.status.code): \(body)")
    }
    return 0
}

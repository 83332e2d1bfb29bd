// http-ceiling: answers every request with 200 "ok" through SlateHTTP's libmicrohttpd
// bridge (suspend, Task, resume under load; in place with few connections open) — the ceiling the API benchmark is measured against.
//   http-ceiling [port] [threads]   (default 8089 and the server's default pool;
//                                    SIGINT or SIGTERM stops it)
import Foundation
import SlateHTTP

struct Ceiling: Responder {
    func respond(to request: Request) async throws -> Response { .text("ok") }
}

let arguments = CommandLine.arguments.dropFirst().map { Int($0) }
var configuration = HTTPServer.Configuration(port: arguments.first.flatMap { $0 } ?? 8089)
if arguments.count > 1, let threads = arguments[arguments.index(after: arguments.startIndex)] {
    configuration.threadPoolSize = threads
}
let server = HTTPServer(configuration: configuration, responder: Ceiling())
do {
    try server.start()
} catch {
    FileHandle.standardError.write(Data("http-ceiling: \(error)\n".utf8))
    exit(1)
}
server.shutdownOnSignals()
// Written unbuffered: a test reads the port from this line while the process runs.
FileHandle.standardOutput.write(Data("http-ceiling listening on 127.0.0.1:\(server.port)\n".utf8))
await server.waitUntilStopped()

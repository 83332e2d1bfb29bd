import Foundation
import SlateHTTP
import Synchronization

/// Starts a server on 127.0.0.1 with a free port, runs `body`, and shuts it down.
func withServer(_ responder: any Responder, configure: (inout HTTPServer.Configuration) -> Void = { _ in },
                _ body: (HTTPServer) async throws -> Void) async throws {
    var configuration = HTTPServer.Configuration(port: 0)
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, responder: responder)
    try server.start()
    do {
        try await body(server)
    } catch {
        await server.shutdown()
        throw error
    }
    await server.shutdown()
}

/// A one-way gate: tasks wait on it until someone opens it.
final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Waits at most `limit`; true if the latch opened.
    func wait(atMost limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.wait(); return true }
            group.addTask { try? await Task.sleep(for: limit); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first { self.open() }  // releases the waiting child so the group can end
            return first
        }
    }
}

/// Lines written by an ``AccessLog`` under test.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var writer: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
}

/// A temporary directory removed at the end of the test.
struct TemporaryDirectory: ~Copyable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("slate-http-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ relative: String, _ contents: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }
}

extension Response {
    var text: String { String(decoding: bodyData ?? Data(), as: UTF8.self) }

    /// The decoded JSON error object, for checking its shape.
    var errorObject: [String: String]? {
        guard let data = bodyData, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let error = object["error"] as? [String: Any] else { return nil }
        return error.compactMapValues { $0 as? String }
    }
}

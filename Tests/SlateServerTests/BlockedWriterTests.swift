import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
@testable import SlateStore
import Synchronization
import TestDatabases
import Testing

/// Blocking database work runs on the board's own threads: changes stuck behind another
/// connection's write lock stall neither reads nor live streams.
@Suite struct BlockedWriterTests {
    @Test func readsAndHeartbeatsGoOnWhileAnotherConnectionHoldsTheWriteLock() async throws {
        // (On PostgreSQL: two nodes on one database, the other holding the store's write lock.)
        let board = try BlockedBoard("slate-blocked") { TestDatabase.shared(path: $0, schemaVersion: SlateSchema.version, busyTimeout: 60) }
        defer { board.remove() }
        let api = SlateAPI(container: board.container, authenticate: { [accountID = board.account.id] _ in accountID })
        let server = try board.serve(api.router)
        defer { Task { await server.shutdown() } }
        let port = server.port
        let stream = try await board.openStream(port: port)
        let holder = try await board.holdWriteLock()

        // More blocked changes than the machine has cores: each would have held a thread of
        // the cooperative pool for as long as the lock is held.
        let writes = (0..<(ProcessInfo.processInfo.activeProcessorCount * 3)).map { index in
            Task { try await api.router.respond(to: Request(method: .post, target: "/api/v1/tasks",
                                                          headers: ["Content-Type": "application/json"],
                                                          body: Data("{\"title\": \"Queued \(index)\"}".utf8))).status.code }
        }

        let reader = try LoopbackClient(port: port, timeout: 20)
        try reader.send("GET /api/v1/tasks HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let page = try await reader.read { $0.contains("\"revision\"") }
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(200))")
        #expect(page.contains("Already here"))
        #expect(holder.isHolding, "the read completed while the lock was held")

        let beats = try await stream.read { $0.components(separatedBy: ": keepalive").count > 3 }
        #expect(beats.components(separatedBy: ": keepalive").count > 3, "heartbeats continued while changes waited")
        #expect(holder.isHolding)

        holder.release()
        for write in writes { #expect(try await write.value == 201, "the queued changes went through once the lock was free") }
        await server.shutdown()
    }
}

/// The setting of the blocked-writer tests: a board with one task, in a folder of its own,
/// served with 200 ms heartbeats; a live stream on it; and another connection (as another
/// process would) that takes the store's write lock and keeps it.
struct BlockedBoard {
    let folder: URL
    let configuration: ModelConfiguration
    let container: ModelContainer
    let account: Account

    /// `configuration` makes the store's configuration for a path, with a long busy timeout:
    /// the queued changes wait for the lock instead of failing.
    init(_ name: String, configuration: (String) -> ModelConfiguration) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.configuration = configuration(folder.appendingPathComponent("slate.sqlite").path)
        container = try ModelContainer(for: SlateSchema.models, configuration: self.configuration)
        account = try Slate.ensureAccount(named: "ana", in: container, now: Date())
        try Slate(container: container, accountID: account.id).addTask(TaskDraft(title: "Already here"))
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// A started server for `responder`, heartbeats every 200 ms.
    func serve(_ responder: any Responder) throws -> HTTPServer {
        var serverConfiguration = HTTPServer.Configuration(port: 0)
        serverConfiguration.sseHeartbeat = .milliseconds(200)
        let server = HTTPServer(configuration: serverConfiguration, responder: responder)
        try server.start()
        return server
    }

    /// A live stream on the API, once it has said hello.
    func openStream(port: Int) async throws -> LoopbackClient {
        let stream = try LoopbackClient(port: port, timeout: 20)
        try stream.send("GET /api/v1/events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await stream.read { $0.contains("event: hello") }
        return stream
    }

    /// The write lock, held by another connection until released.
    func holdWriteLock() async throws -> LockHolder {
        let other = try ModelContainer(for: SlateSchema.models, configuration: configuration)
        let holder = LockHolder(pool: other.pool)
        try await holder.acquire()
        return holder
    }
}

/// Holds the store's write lock (SQLite's, or on PostgreSQL the store sequence's row, which
/// every write takes first) on a connection of its own, on a thread of its own, until
/// released (at most 15 seconds).
final class LockHolder: Sendable {
    private let pool: ConnectionPool
    private let released = DispatchSemaphore(value: 0)
    private let holding = Atomic<Bool>(false)

    init(pool: ConnectionPool) { self.pool = pool }

    var isHolding: Bool { holding.load(ordering: .acquiring) }

    /// Returns once the lock is held.
    func acquire() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            Thread {
                do {
                    try self.pool.write { database in
                        if database.dialect == .postgreSQL {
                            try database.execute("BEGIN")
                            _ = try database.scalar("SELECT value FROM _slate_meta WHERE key = 'revision' FOR UPDATE")
                        } else {
                            try database.execute("BEGIN IMMEDIATE")
                        }
                        self.holding.store(true, ordering: .releasing)
                        continuation.resume()
                        // Let go after a while regardless, so that a stalled server fails the test instead of hanging it.
                        _ = self.released.wait(timeout: .now() + 15)
                        self.holding.store(false, ordering: .releasing)
                        try database.execute("ROLLBACK")
                    }
                } catch {
                    if !self.isHolding { continuation.resume(throwing: error) }
                }
            }.start()
        }
    }

    func release() { released.signal() }
}

import Foundation
import Synchronization
import ProcessSupport
import Testing
@testable import SlateHTTP

#if canImport(Glibc)
import Glibc
#endif

extension OverTheWire {
    @Suite struct ShutdownTests {
        @Test func gracefulShutdownFinishesRequestsInFlightAndEndsStreams() async throws {
            let started = Latch()
            let release = Latch()
            let (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
            let streamEnded = Latch()
            continuation.onTermination = { _ in streamEnded.open() }
            var router = Router()
            router.on(.get, "/slow") { _ in
                started.open()
                await release.wait()
                return .text("done")
            }
            router.on(.get, "/events") { _ in .eventStream(events) }
            let server = HTTPServer(configuration: .init(port: 0), responder: router)
            try server.start()
            let port = server.port

            let stream = try await offPool {
                let stream = try RawConnection(port: port)
                try stream.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
                _ = try stream.readHead()
                return stream
            }
            continuation.yield(ServerSentEvent(data: "before"))
            let slow = try await offPool {
                let slow = try RawConnection(port: port)
                try slow.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
                return slow
            }
            #expect(await started.wait(atMost: .seconds(10)))

            let stopping = Task { await server.shutdown() }
            // The open stream ends, after what was already sent.
            let streamed = try await offPool { try stream.readToEndOfStream() }
            #expect(streamed.contains("data: before\n\n"))
            #expect(await streamEnded.wait(atMost: .seconds(10)))
            // No new connections while the slow request is still running.
            let refused = try await offPool { () -> Bool in
                for _ in 0..<500 {
                    guard (try? RawConnection(port: port)) != nil else { return true }
                    usleep(10_000)
                }
                return false
            }
            #expect(refused)
            #expect(server.isRunning == false)

            release.open()
            let response = try await offPool { try slow.readResponse() }
            #expect(response.status == 200 && response.text == "done")
            #expect(response.headers["Connection"]?.lowercased() == "close")
            await stopping.value
            await server.waitUntilStopped()
        }

        @Test func requestsStillRunningAfterTheGracePeriodGet503() async throws {
            let started = Latch()
            var router = Router()
            router.on(.get, "/stuck") { _ in
                started.open()
                try await Task.sleep(for: .seconds(120))  // cancelled by the shutdown
                return .text("too late")
            }
            var configuration = HTTPServer.Configuration(port: 0)
            configuration.shutdownGracePeriod = .milliseconds(200)
            let server = HTTPServer(configuration: configuration, responder: router)
            try server.start()
            let port = server.port
            let connection = try await offPool {
                let connection = try RawConnection(port: port)
                try connection.send("GET /stuck HTTP/1.1\r\nHost: t\r\n\r\n")
                return connection
            }
            #expect(await started.wait(atMost: .seconds(10)))
            await server.shutdown()
            let response = try await offPool { try connection.readResponse() }
            #expect(response.status == 503)
            #expect(response.text.contains(#""code":"shutting_down""#))
        }

        @Test func shutdownWhileClientsKeepSendingCompletes() async throws {
            var router = Router()
            // Opens once the server has answered 50 requests: it is then busy with all six
            // clients, and the shutdown lands among their requests.
            let busy = Latch()
            let served = Mutex(0)
            router.on(.get, "/") { _ in
                try await Task.sleep(for: .milliseconds(1))
                if served.withLock({ count in count += 1; return count }) == 50 { busy.open() }
                return .text("ok")
            }
            var configuration = HTTPServer.Configuration(port: 0)
            configuration.shutdownGracePeriod = .milliseconds(500)
            let server = HTTPServer(configuration: configuration, responder: router)
            try server.start()
            let port = server.port
            let clients = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<6 {
                        group.addTask {
                            try await offPool {
                                // Each client sends until the server closes on it or refuses it.
                                var answered = 0
                                for _ in 0..<2000 {
                                    guard let connection = try? RawConnection(port: port, timeout: 5) else { return answered }
                                    while let response = try? connection.exchange("GET / HTTP/1.1\r\nHost: t\r\n\r\n") {
                                        answered += 1
                                        if response.headers["Connection"]?.lowercased() == "close" { break }
                                    }
                                }
                                return answered
                            }
                        }
                    }
                    return try await group.reduce(0, +)
                }
            }
            #expect(await busy.wait(atMost: .seconds(30)))
            await server.shutdown()
            let answered = try await clients.value
            #expect(answered > 0)
            #expect(!server.isRunning)
        }

        @Test func aSignalShutsTheServerDown() async throws {
            var router = Router()
            router.on(.get, "/") { _ in .text("ok") }
            let server = HTTPServer(configuration: .init(port: 0), responder: router)
            try server.start()
            // SIGUSR2 rather than SIGTERM: the handler is process-wide and this is the test runner.
            server.shutdownOnSignals([SIGUSR2])
            let stopped = Latch()
            Task {
                await server.waitUntilStopped()
                stopped.open()
            }
            kill(getpid(), SIGUSR2)
            #expect(await stopped.wait(atMost: .seconds(20)))
            #expect(!server.isRunning)
        }

        @Test func shutdownOfAServerThatNeverStartedReturns() async {
            let server = HTTPServer(responder: Router())
            await server.shutdown()
            await server.waitUntilStopped()
            #expect(server.port == 0)
        }

        @Test func aBusyPortIsAClearError() async throws {
            let first = HTTPServer(configuration: .init(port: 0), responder: Router())
            try first.start()
            let second = HTTPServer(configuration: .init(port: first.port), responder: Router())
            #expect(throws: HTTPServerError.self) { try second.start() }
            await first.shutdown()
        }

        @Test func theCeilingExecutableServesAndExitsZeroOnSIGTERM() async throws {
            let executable = try Self.executable("http-ceiling")
            var pipe = Pipe()
            let process = try launchRetryingSpawnRace {
                let process = Process()
                process.executableURL = executable
                process.arguments = ["0"]
                pipe = Pipe()
                process.standardOutput = pipe
                return process
            }
            let output = pipe
            let port = try await offPool { () -> Int in
                var line = Data()
                while !line.contains(UInt8(ascii: "\n")) {
                    let byte = output.fileHandleForReading.readData(ofLength: 1)
                    guard !byte.isEmpty else { break }
                    line.append(byte)
                }
                let text = String(decoding: line, as: UTF8.self)
                guard let port = text.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
                    throw RawClientError(description: "no port in \(text.debugDescription)")
                }
                return port
            }
            let response = try await offPool { try RawConnection(port: port).exchange("GET / HTTP/1.1\r\nHost: t\r\n\r\n") }
            #expect(response.status == 200 && response.text == "ok")
            process.terminate()  // SIGTERM
            let exited = try await offPool { () -> Bool in
                for _ in 0..<1000 where process.isRunning { usleep(10_000) }
                return !process.isRunning
            }
            if !exited { kill(process.processIdentifier, SIGKILL) }
            #expect(exited)
            #expect(process.terminationStatus == 0 && process.terminationReason == .exit)
        }

        /// SwiftPM puts the executables beside the test bundle.
        static func executable(_ name: String) throws -> URL {
            var folders: [URL] = []
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                folders.append(URL(fileURLWithPath: path).deletingLastPathComponent())
            }
            folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
            folders += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
            guard let found = folders.map({ $0.appendingPathComponent(name) }).first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
                throw RawClientError(description: "\(name) not found in \(folders.map(\.path))")
            }
            return found
        }
    }
}


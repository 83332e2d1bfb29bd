import Foundation
import ProcessSupport
import Testing

/// The real `slate` executable, run as a child process: exit codes, streams, environment,
/// and data that persists from one process to the next.
@Suite struct CLIProcessTests {
    struct Run {
        let code: Int32
        let out: String
        let err: String
    }

    /// Runs the built `slate` with `arguments` and a private database.
    func slate(_ arguments: [String], database: String, input: String? = nil, extraEnvironment: [String: String] = [:]) throws -> Run {
        let executable = try Self.executable()
        var environment = ProcessInfo.processInfo.environment
        environment["SLATE_DB"] = database
        environment["TZ"] = "Europe/Paris"
        for (key, value) in extraEnvironment { environment[key] = value }
        var out = Pipe(), err = Pipe(), stdin = Pipe()
        let process = try launchRetryingSpawnRace {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = environment
            (out, err, stdin) = (Pipe(), Pipe(), Pipe())
            process.standardOutput = out
            process.standardError = err
            process.standardInput = stdin
            return process
        }
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(code: process.terminationStatus, out: String(decoding: output, as: UTF8.self), err: String(decoding: error, as: UTF8.self))
    }

    @Test func writesPersistAcrossProcessesAndExitCodesAreDocumented() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-process-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("nested/slate.sqlite").path

        let added = try slate(["add", "Record", "foley", "!low"], database: database)
        #expect(added.code == 0, "\(added.err)")
        #expect(added.out == "Added #1 “Record foley” — ! low\n")
        #expect(try slate(["done", "1"], database: database).code == 0)

        let listed = try slate(["list", "--status", "all", "--json"], database: database)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])
        let tasks = try #require(json["tasks"] as? [[String: Any]])
        #expect(tasks.map { $0["title"] as? String } == ["Record foley"])
        #expect(tasks.first?["isCompleted"] as? Bool == true)

        let usage = try slate(["lsit"], database: database)
        #expect(usage.code == 2 && usage.out.isEmpty && usage.err.hasPrefix("error: unknown command 'lsit'. Did you mean 'list'?"))
        let missing = try slate(["show", "99"], database: database)
        #expect(missing.code == 1 && missing.err == "error: No task #99.\n")
        #expect(try slate(["undo"], database: database).out == "Undid: Complete “Record foley”\n")
    }

    @Test func pipedOutputHasNoColourAndNoTruncation() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-process-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("slate.sqlite").path
        let long = String(repeating: "very long title ", count: 20).trimmingCharacters(in: .whitespaces)
        _ = try slate(["add", long], database: database)
        let listed = try slate(["list"], database: database, extraEnvironment: ["COLUMNS": "40"])
        #expect(listed.out.contains(long))
        #expect(!listed.out.contains("\u{1B}["))
    }

    /// SwiftPM puts the executables and the test executable in the same build folder.
    static func executable() throws -> URL {
        var folders: [URL] = []
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: path).deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        folders += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
        guard let found = folders.map({ $0.appendingPathComponent("slate") }).first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "slate not found in \(folders.map(\.path))"])
        }
        return found
    }
}


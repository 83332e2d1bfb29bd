import Foundation
@testable import SlateStore
import StoreCrashModel
import Synchronization
import ProcessSupport
import Testing

// A real writer process (Tests/Support/StoreCrashWriter) is killed with SIGKILL while it
// commits; the file must then open with every reported commit, whole transactions only,
// and pass SQLite's integrity check.

/// Rows in each transaction of the writer.
private let rowsPerBatch = 25
/// The batch the writer's `migrate` mode inserts inside the migration it is killed in.
private let migrationBatch = 999_999
/// Generous bound on every wait: builds may be running on the same two cores.
private let patience: TimeInterval = 90

@Suite struct CrashSafetyTests {
    @Test func killedWriterKeepsEveryReportedCommitAndOnlyWholeTransactions() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("crash.sqlite")
        var batchesInFile = 0
        for round in 1...3 {
            let writer = try CrashWriter(
                arguments: [path, "\(rowsPerBatch)"], errorLog: folder.path("writer-\(round).log"))
            let ready = writer.waitForLine(timeout: patience) { $0.hasPrefix("ready ") }
            // It continues after the batches that survived the previous kill.
            #expect(ready == "ready \(batchesInFile + 1)", "\(writer.errors)")
            let target = batchesInFile + 5
            let reached = writer.waitForLine(timeout: patience) { (CrashWriter.commit(in: $0)?.batch ?? 0) >= target }
            // Kill straight away: the writer is then usually inside its next save.
            #expect(writer.kill(), "the writer did not die within \(patience) s of SIGKILL")
            try #require(reached != nil, "the writer never reported batch \(target): \(writer.errors)")
            writer.waitForEndOfOutput(timeout: 10)
            #expect(writer.wasKilled)

            let commits = writer.lines.compactMap(CrashWriter.commit(in:))
            #expect(commits.allSatisfy { $0.batch == $0.revision }, "each save is one revision")
            let reported = try #require(commits.map(\.batch).max())
            #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the kill leaves a WAL to recover from")
            batchesInFile = try verifySurvivingFile(at: path, reportedBatches: reported)
        }
    }

    @Test func writerKilledInsideAMigrationLeavesTheOldSchema() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("crash.sqlite")
        do {
            let context = ModelContext(try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path)))
            for batch in 1...3 {
                for seq in 0..<rowsPerBatch { context.insert(CrashRow(batch: batch, seq: seq, payload: "batch\(batch)")) }
                try context.save()
            }
        }

        let writer = try CrashWriter(
            arguments: [path, "\(rowsPerBatch)", "migrate"], errorLog: folder.path("writer.log"))
        let migrating = writer.waitForLine(timeout: patience) { $0 == "migrating" }
        #expect(writer.kill(), "the writer did not die within \(patience) s of SIGKILL")
        try #require(migrating != nil, "the writer never reached its migration: \(writer.errors)")
        #expect(writer.wasKilled)

        // Version-1 code opens it: a migration that had stuck would be refused as newer.
        #expect(try verifySurvivingFile(at: path, reportedBatches: 3) == 3)
        let container = try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path))
        let (version, columns, strays) = try container.pool.read { database in
            (try database.scalar("SELECT value FROM _slate_meta WHERE key = 'schema_version'"),
             try database.rows("SELECT name FROM pragma_table_info('crash_rows')").map { $0["name"] },
             try database.scalar("SELECT count(*) FROM crash_rows WHERE batch = ?", [.integer(Int64(migrationBatch))]))
        }
        #expect(version == .integer(1))
        #expect(!columns.contains(.text("note")))
        #expect(strays == .integer(0))
    }

    @Test func closedContainerLeavesItsLogForTheNextAndABackupIsSelfContained() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("store.sqlite")
        do {
            let context = ModelContext(try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path)))
            for seq in 0..<rowsPerBatch { context.insert(CrashRow(batch: 1, seq: seq, payload: "closed")) }
            try context.save()
        }
        // Closing neither folds the log back (two fsyncs) nor deletes it (the next writer
        // would create it again: two more); the next opener reads it.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let reopened = ModelContext(try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path)))
        #expect(try reopened.fetchCount(FetchDescriptor<CrashRow>()) == rowsPerBatch)
        // A copy to take away is made with `backup(to:)`: one file that holds every commit.
        let copy = folder.path("copy.sqlite")
        try reopened.container.backup(to: copy)
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
        let fromCopy = ModelContext(try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: copy)))
        #expect(try fromCopy.fetchCount(FetchDescriptor<CrashRow>()) == rowsPerBatch)
    }

    @Test func theLogStaysShortAcrossManyProcessesWorthOfCommits() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("store.sqlite")
        let bound = Int(WriteAheadLog.checkpointFrames + 64) * (4096 + 24) + 32
        var longest = 0
        for batch in 1...120 {
            // A container per commit, as a `slate` command opens the store for one write.
            let context = ModelContext(try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path)))
            for seq in 0..<rowsPerBatch { context.insert(CrashRow(batch: batch, seq: seq, payload: String(repeating: "p", count: 300))) }
            try context.save()
            let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            longest = max(longest, size)
        }
        // Left to SQLite's automatic checkpoint it grew without end: each new process forgot
        // what the last one had copied into the file.
        #expect(longest <= bound, "the log reached \(longest) bytes")
        #expect(longest > 0)
        let context = ModelContext(try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path)))
        #expect(try context.fetchCount(FetchDescriptor<CrashRow>()) == 120 * rowsPerBatch)
        let integrity = try context.container.pool.read { try $0.rows("PRAGMA integrity_check") }
        #expect(integrity.map { $0["integrity_check"] } == [.text("ok")])
    }

    @Test func aServersLogKeepsItsFileAcrossFoldsAndIsEmptiedWhenItStops() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("store.sqlite")
        let logSize = { (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0 }
        let frame = 4096 + 24
        var configuration = ModelConfiguration(path: path)
        configuration.writeAheadLogPages = 100
        configuration.keepsWriteAheadLogFile = true
        var batches = 0
        do {
            let container = try ModelContainer(for: [CrashRow.self], configuration: configuration)
            let context = ModelContext(container)
            var longest = 0
            var shrank = false
            // Many times the bound: folded back again and again, the file is written over
            // from its start, so it never grows past the bound and one commit.
            while batches < 200 {
                batches += 1
                for seq in 0..<rowsPerBatch { context.insert(CrashRow(batch: batches, seq: seq, payload: String(repeating: "p", count: 300))) }
                try context.save()
                let size = logSize()
                shrank = shrank || size < longest
                longest = max(longest, size)
            }
            #expect(longest > 100 * frame, "the log passed its bound")
            // A batch writes about 20 frames; a fold that finds the log busy leaves it for a
            // later commit, so the log may pass its bound by a few commits (167 frames once,
            // under a full test run; 117–131 alone). Never folded back, 200 batches would
            // have grown it to about 4,000.
            #expect(longest <= 2 * 100 * frame + 32, "the log reached \(longest) bytes")
            #expect(!shrank, "a fold emptied the file")
            container.foldWriteAheadLog()
            #expect(logSize() == 0)
        }
        let context = ModelContext(try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path)))
        #expect(try context.fetchCount(FetchDescriptor<CrashRow>()) == batches * rowsPerBatch)
        let integrity = try context.container.pool.read { try $0.rows("PRAGMA integrity_check") }
        #expect(integrity.map { $0["integrity_check"] } == [.text("ok")])
    }

    @Test func aServersLongerLogIsFoldedBackWhenItStops() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("store.sqlite")
        let logSize = { (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0 }
        let usualBound = Int(WriteAheadLog.checkpointFrames + 64) * (4096 + 24) + 32
        var configuration = ModelConfiguration(path: path)
        configuration.writeAheadLogPages = 2_000
        var batches = 0
        do {
            let container = try ModelContainer(for: [CrashRow.self], configuration: configuration)
            let context = ModelContext(container)
            // Past the usual bound, which would have folded the log back on the way.
            while logSize() <= usualBound, batches < 1_000 {
                batches += 1
                for seq in 0..<rowsPerBatch { context.insert(CrashRow(batch: batches, seq: seq, payload: String(repeating: "p", count: 300))) }
                try context.save()
            }
            #expect(logSize() > usualBound)
            #expect(logSize() <= (2_000 + 64) * (4096 + 24) + 32)
            container.foldWriteAheadLog()
            #expect(logSize() == 0)
            // Still a store that takes writes after it (the log starts again).
            batches += 1
            for seq in 0..<rowsPerBatch { context.insert(CrashRow(batch: batches, seq: seq, payload: "after")) }
            try context.save()
            #expect(logSize() > 0)
        }
        let context = ModelContext(try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path)))
        #expect(try context.fetchCount(FetchDescriptor<CrashRow>()) == batches * rowsPerBatch)
        let integrity = try context.container.pool.read { try $0.rows("PRAGMA integrity_check") }
        #expect(integrity.map { $0["integrity_check"] } == [.text("ok")])
    }
}

/// Opens the file left by a killed writer and checks it; returns how many batches it holds.
private func verifySurvivingFile(at path: String, reportedBatches: Int) throws -> Int {
    let container = try ModelContainer(for: [CrashRow.self], configuration: ModelConfiguration(path: path))
    let context = ModelContext(container)
    let batches = Dictionary(grouping: try context.fetch(FetchDescriptor<CrashRow>()), by: \.batch)
    let numbers = batches.keys.sorted()
    try #require(numbers.count >= reportedBatches, "reported \(reportedBatches) commits, found \(numbers.count)")
    #expect(numbers == Array(1...numbers.count), "batches are committed in order, none skipped")
    for (batch, rows) in batches {
        #expect(rows.map(\.seq).sorted() == Array(0..<rowsPerBatch), "batch \(batch) is incomplete")
    }
    #expect(try container.currentRevision() == numbers.count)

    let integrity = try container.pool.read { try $0.rows("PRAGMA integrity_check") }
    #expect(integrity.map { $0["integrity_check"] } == [.text("ok")])
    // The full-text index agrees with the rows it indexes.
    try container.pool.write { try $0.execute("INSERT INTO crash_rows_fts(crash_rows_fts) VALUES ('integrity-check')") }
    let last = numbers.count
    var search = FetchDescriptor<CrashRow>(predicate: #Predicate { $0.batch == last })
    search.searchText = "batch\(last)"
    #expect(try context.fetchCount(search) == rowsPerBatch)
    return numbers.count
}

/// The store-crash-writer child process and the lines it printed.
private final class CrashWriter {
    private let process: Process
    private let output = OutputLines()
    private let exited = DispatchSemaphore(value: 0)
    private let errorLog: String

    /// Starts the writer (found next to the test executable) with `arguments`.
    init(arguments: [String], errorLog: String) throws {
        self.errorLog = errorLog
        let executable = try Self.executable()
        let exited = self.exited
        var pipe = Pipe()
        process = try launchRetryingSpawnRace {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            pipe = Pipe()
            process.standardOutput = pipe
            _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errorLog)
            process.standardInput = FileHandle.nullDevice
            process.terminationHandler = { _ in exited.signal() }
            return process
        }
        let output = self.output
        let reading = pipe.fileHandleForReading
        Thread.detachNewThread { output.read(from: reading) }
    }

    deinit {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// What the writer wrote to stderr, for failure messages.
    var errors: String { (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "" }

    /// Every complete line printed so far.
    var lines: [String] { output.lines }

    /// The first printed line that satisfies `condition`, or nil after `timeout` seconds
    /// or when the writer's output ends first.
    func waitForLine(timeout: TimeInterval, where condition: (String) -> Bool) -> String? {
        output.waitForLine(until: .now() + timeout, where: condition)
    }

    /// Waits (bounded) until everything the writer printed before it died has been read.
    func waitForEndOfOutput(timeout: TimeInterval) {
        _ = output.waitForLine(until: .now() + timeout) { _ in false }
    }

    /// Sends SIGKILL and waits for the process to end; false if it did not end in time.
    func kill() -> Bool {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        return exited.wait(timeout: .now() + patience) == .success
    }

    /// True when the process ended by SIGKILL rather than exiting on its own.
    var wasKilled: Bool {
        !process.isRunning && process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// The batch and revision of a `committed <batch> <revision>` line.
    static func commit(in line: String) -> (batch: Int, revision: Int)? {
        let words = line.split(separator: " ")
        guard words.count == 3, words[0] == "committed", let batch = Int(words[1]), let revision = Int(words[2]) else {
            return nil
        }
        return (batch, revision)
    }

    /// SwiftPM puts executables and the test executable (on Linux) or bundle (on macOS)
    /// in the same build folder.
    private static func executable() throws -> URL {
        var folders: [URL] = []
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: path).deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        if let url = Bundle.main.executableURL { folders.append(url.deletingLastPathComponent()) }
        folders += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
        for folder in folders {
            let candidate = folder.appendingPathComponent("store-crash-writer")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [
            NSLocalizedDescriptionKey: "store-crash-writer not found in \(folders.map(\.path)); run `swift build --build-tests`",
        ])
    }
}

/// Lines read from a pipe on a background thread, with a bounded wait for new ones.
private final class OutputLines: Sendable {
    private struct State {
        var lines: [String] = []
        var partial = Data()
        var ended = false
    }

    private let state = Mutex(State())
    private let arrived = DispatchSemaphore(value: 0)

    var lines: [String] { state.withLock { $0.lines } }

    /// Reads until end of file (the writer died or closed stdout).
    func read(from handle: FileHandle) {
        while true {
            let data = handle.availableData
            state.withLock { state in
                if data.isEmpty {
                    state.ended = true
                    return
                }
                state.partial.append(data)
                while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                    state.lines.append(String(decoding: state.partial[..<newline], as: UTF8.self))
                    state.partial = Data(state.partial[(newline + 1)...])
                }
            }
            arrived.signal()
            if data.isEmpty { return }
        }
    }

    func waitForLine(until deadline: DispatchTime, where condition: (String) -> Bool) -> String? {
        var checked = 0
        while true {
            let (lines, ended) = state.withLock { ($0.lines, $0.ended) }
            if let match = lines[checked...].first(where: condition) { return match }
            checked = lines.count
            if ended || arrived.wait(timeout: deadline) == .timedOut { return nil }
        }
    }
}


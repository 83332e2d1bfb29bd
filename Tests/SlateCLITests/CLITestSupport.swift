import Foundation
import Synchronization
import Testing

@testable import SlateCLI

/// Runs `slate` in-process against a database in a fresh temporary folder, with a fixed
/// clock (Sunday 29 November 2026, 10:15) and time zone (Europe/Paris).
final class CLIHarness {
    let folder: URL
    let database: String
    var terminalWidth: Int? = nil
    var environment: [String: String] = [:]

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        return calendar
    }()
    static let now = calendar.date(from: DateComponents(year: 2026, month: 11, day: 29, hour: 10, minute: 15))!

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = folder.appendingPathComponent("slate.sqlite").path
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    struct Result {
        let code: Int32
        let out: String
        let err: String
    }

    /// Runs one command line, with `--db` pointing at this harness's database.
    @discardableResult
    func run(_ words: String..., withDatabase: Bool = true) -> Result {
        run(Array(words), withDatabase: withDatabase)
    }

    @discardableResult
    func run(_ words: [String], withDatabase: Bool = true) -> Result {
        let console = Console()
        let arguments = withDatabase ? ["--db", database] + words : words
        let environment = self.environment
        let code = SlateCommandLine.run(arguments, console: console, environment: environment,
                                        terminalWidth: terminalWidth, calendar: Self.calendar, clock: { Self.now })
        return Result(code: code, out: console.standardOutput, err: console.standardError)
    }

    /// Runs a command with `--json` and decodes its output.
    func json(_ words: String...) throws -> Any {
        let result = run(Array(words) + ["--json"])
        #expect(result.code == 0, "\(words): \(result.err)")
        return try JSONSerialization.jsonObject(with: Data(result.out.utf8))
    }
}

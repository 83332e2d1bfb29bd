import Foundation
import Synchronization
import Testing

@testable import SlateCLI

/// What a command reads only when it needs it: the process environment and the calendar
/// (each about 1.4M instructions, a fifth of `slate --version`).
@Suite struct OnDemandStartTests {
    /// Counts how often `slate` asked for the environment and the calendar.
    final class Reads: Sendable {
        let environment = Mutex(0)
        let calendar = Mutex(0)

        func readEnvironment(_ values: [String: String] = [:]) -> [String: String] {
            environment.withLock { $0 += 1 }
            return values
        }

        func readCalendar() -> Calendar {
            calendar.withLock { $0 += 1 }
            return CLIHarness.calendar
        }

        var counts: (environment: Int, calendar: Int) {
            (environment.withLock { $0 }, calendar.withLock { $0 })
        }
    }

    private func run(_ arguments: [String], _ reads: Reads, environment: [String: String] = [:]) -> (code: Int32, out: String) {
        let console = Console()
        let code = SlateCommandLine.run(arguments, console: console, environment: reads.readEnvironment(environment),
                                        terminalWidth: nil, calendar: reads.readCalendar(), clock: { CLIHarness.now })
        return (code, console.standardOutput)
    }

    @Test func versionReadsNeitherTheEnvironmentNorTheCalendar() {
        let reads = Reads()
        let result = run(["--version"], reads)
        #expect(result.code == 0 && result.out.hasPrefix("slate "))
        #expect(reads.counts == (0, 0))
    }

    @Test func doneOnAFileNeedsNeitherAndAddReadsTheCalendarOnce() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Buy film").code == 0)
        let done = Reads()
        let completed = run(["--db", cli.database, "done", "1"], done)
        #expect(completed.code == 0 && completed.out.contains("Completed #1"))
        #expect(done.counts == (0, 0))

        let add = Reads()
        let added = run(["--db", cli.database, "add", "Call the lab", "tomorrow"], add)
        #expect(added.code == 0 && added.out.contains("due Tomorrow"), "\(added.out)")
        #expect(add.counts.environment == 0)
        #expect(add.counts.calendar >= 1, "quick entry needs the calendar")
    }

    @Test func withoutDbTheEnvironmentStillNamesTheDatabase() throws {
        let cli = try CLIHarness()
        let reads = Reads()
        let added = run(["add", "Buy film"], reads, environment: ["SLATE_DB": cli.database])
        #expect(added.code == 0, "\(added.out)")
        #expect(reads.counts.environment == 1, "read once, however many variables are looked up")
        #expect(FileManager.default.fileExists(atPath: cli.database))
        #expect(cli.run("list").out.contains("Buy film"))
    }
}

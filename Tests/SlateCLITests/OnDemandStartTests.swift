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

    /// A line without a date makes no calendar (quick entry asks for one only to read a
    /// date); one with a date makes it once, for the parser, the board and the reply.
    @Test func addWithoutADateMakesNoCalendar() throws {
        let cli = try CLIHarness()
        #expect(cli.run("lists", "add", "Finance").code == 0)
        let plain = Reads()
        let added = run(["--db", cli.database, "add", "Call the printer about the toner", "#Finance", "!high", "@office"], plain)
        #expect(added.code == 0 && added.out.contains("Call the printer about the toner") && added.out.contains("Finance"), "\(added.out)")
        #expect(plain.counts == (0, 0))

        let dated = Reads()
        let withDate = run(["--db", cli.database, "add", "Call the lab fri 5pm", "#Finance"], dated)
        #expect(withDate.code == 0 && withDate.out.contains("due "), "\(withDate.out)")
        #expect(dated.counts.calendar == 1)
        #expect(cli.run("list", "--json").out.contains("Call the lab"))

        // The board and the session share one calendar: a list (its "today" and its dates) makes it once.
        let listed = Reads()
        let list = run(["--db", cli.database, "list"], listed)
        #expect(list.code == 0 && list.out.contains("Call the lab"), "\(list.out)")
        #expect(listed.counts.calendar == 1)
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

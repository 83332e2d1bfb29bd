import Foundation
import Testing

@testable import SlateCLI

/// `slate done` of a repeating task says where it goes on: its next occurrence's number and
/// due date (on Sunday 29 November 2026, 10:15 in Paris), and `--json` gives it as `next`.
@Suite struct DoneNextTests {
    @Test func completingARepeatingTaskNamesItsNextOccurrence() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Water plants every 2 days").code == 0)
        #expect(cli.run("add", "Standup every monday 9am").code == 0)
        #expect(cli.run("add", "Buy film").code == 0)
        let done = cli.run("done", "1", "2", "3")
        #expect(done.code == 0)
        #expect(done.out == """
            Completed #1 “Water plants” — next: #4 due Tue
            Completed #2 “Standup” — next: #5 due 7 Dec 09:00
            Completed #3 “Buy film”

            """, "\(done.out)")
        #expect(cli.run("list").out.contains("#4"))

        let json = cli.run("done", "4", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let next = try #require(object["next"] as? [[String: Any]])
        #expect(next.count == 1)
        #expect(next.first?["after"] as? Int == 4)
        #expect(next.first?["number"] as? Int == 6)
        #expect(next.first?["due"] as? String == "2026-12-03")
        #expect(next.first?["isAllDay"] as? Bool == true)
        #expect(cli.run("show", "6").out.contains("Water plants"))
        // A task that does not repeat has no "next".
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(cli.run("reopen", "3", "--json").out.utf8)) as? [String: Any])
        #expect(plain["next"] == nil)
    }
}

/// `slate edit 3 Buy oat milk`: words after the task, where edit takes a title only with
/// --title, are refused with the command that was meant.
@Suite struct EditTitleHintTests {
    @Test func wordsAfterTheTaskPointToTitle() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Buy milk").code == 0)
        let plain = cli.run("edit", "1", "Buy", "oat", "milk")
        #expect(plain.code != 0)
        #expect(plain.err.hasPrefix("error: unexpected argument 'Buy'. A new title goes with --title: --title 'Buy oat milk'.\n"), "\(plain.err)")
        let quoted = cli.run("edit", "1", "Call Bob's \"mum\"")
        #expect(quoted.err.hasPrefix(#"error: unexpected argument 'Call Bob's "mum"'. A new title goes with --title: --title "Call Bob's \"mum\"".\#n"#), "\(quoted.err)")
        #expect(cli.run("show", "1").out.contains("Buy milk"))
        // A command without --title says only what it did not expect; so does edit when the
        // first word is not a task (the task is what is missing).
        #expect(cli.run("show", "1", "extra").err.hasPrefix("error: unexpected argument 'extra'.\n"))
        #expect(cli.run("edit", "Buy", "oat", "milk").err.hasPrefix("error: unexpected argument 'oat'.\n"))
    }
}

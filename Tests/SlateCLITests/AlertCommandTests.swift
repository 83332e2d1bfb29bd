import Foundation
import SlateCore
import Testing

@testable import SlateCLI

@Suite struct AlertCommandTests {
    @Test func addEditAndListAlerts() throws {
        let cli = try CLIHarness()
        let first = try #require(try cli.json("add", "Mix the trailer", "--due", "2026-11-29 17:00", "--alert", "15m", "--alert", "1h") as? [String: Any])
        #expect(first["alerts"] as? [String] == ["15m", "1h"])
        let defaults = try #require(try cli.json("add", "Colour grade", "--due", "2026-11-30") as? [String: Any])
        #expect(defaults["alerts"] as? [String] == ["0d@09:00"], "an all-day task gets 9:00 on the day")
        let none = try #require(try cli.json("add", "Quiet", "--due", "2026-11-30 12:00", "--no-alerts") as? [String: Any])
        #expect(none["alerts"] as? [String] == [])
        let quick = try #require(try cli.json("add", "Call", "Jessie", "tomorrow", "5pm", "^1d@9:00", "^due") as? [String: Any])
        #expect(quick["alerts"] as? [String] == ["1d@09:00", "due"])
        #expect(quick["title"] as? String == "Call Jessie")

        let edited = try #require(try cli.json("edit", "3", "--alert", "30m") as? [String: Any])
        #expect(edited["alerts"] as? [String] == ["30m"])
        let cleared = try #require(try cli.json("edit", "1", "--no-alerts") as? [String: Any])
        #expect(cleared["alerts"] as? [String] == [])

        let listed = cli.run("alerts")
        #expect(listed.code == 0)
        let lines = listed.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(listed.out)")
        #expect(lines.first?.contains("#2") == true && lines.first?.contains("Colour grade") == true, "9:00 tomorrow comes first: \(listed.out)")
        let json = try #require(try cli.json("alerts") as? [[String: Any]])
        #expect(json.map { $0["task"] as? Int } == [2, 3, 4])
        #expect(json.first?["fireAt"] as? String == "2026-11-30T08:00:00.000Z")
    }

    @Test func badAlertsAreRefusedWithTheAcceptedForms() throws {
        let cli = try CLIHarness()
        let unknown = cli.run("add", "Mix", "--due", "2026-11-29 17:00", "--alert", "soon")
        #expect(unknown.code == 2 && unknown.err.contains("'15m'") && unknown.err.contains("'1d@9:00'"), "\(unknown.err)")
        let undated = cli.run("add", "Someday", "--alert", "15m")
        #expect(undated.code == 1 && undated.err.contains("due date"), "\(undated.err)")
        let quick = cli.run("add", "Mix", "^soon")
        #expect(quick.code == 1 && quick.err.contains("^soon"), "\(quick.err)")
        let both = cli.run("add", "Mix", "--alert", "15m", "--no-alerts")
        #expect(both.code == 2)
        #expect(try (cli.json("list") as? [String: Any])?["total"] as? Int == 0, "nothing written")
        let escaped = try #require(try cli.json("add", "Raise", "\\^2h", "budget") as? [String: Any])
        #expect(escaped["title"] as? String == "Raise ^2h budget")
    }
}

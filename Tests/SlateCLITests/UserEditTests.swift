import Foundation
import SlateCore
import Testing

@testable import SlateCLI

@Suite struct UserEditTests {
    @Test func setsAndClearsAnAccountsTimeZone() throws {
        let cli = try CLIHarness()
        #expect(cli.run("user", "add", "ana").code == 0)
        let set = try #require(try cli.json("user", "edit", "ana", "--time-zone", "America/New_York") as? [String: Any])
        #expect(set["timeZone"] as? String == "America/New_York")
        let container = try Slate.openContainer(path: cli.database)
        let directory = AccountDirectory(container: container)
        let account = try #require(try directory.account(named: "ana"))
        #expect(try directory.timeZone(of: account.id).identifier == "America/New_York")

        let refused = cli.run("user", "edit", "ana", "--time-zone", "Mars/Olympus")
        #expect(refused.code == 2, "a bad value is a wrong command line: \(refused.err)")
        #expect(refused.err.contains("--time-zone") && refused.err.contains("Europe/Paris"), "names the option and the accepted form: \(refused.err)")
        #expect(try directory.account(named: "ana")?.timeZone == "America/New_York", "a refused zone writes nothing")

        #expect(cli.run("user", "edit", "ana", "--time-zone", "none").code == 0)
        #expect(try directory.account(named: "ana")?.timeZone == nil)
        #expect(cli.run("user", "edit", "ana").code == 2, "nothing to change is a usage error")
        #expect(cli.run("user", "edit", "nobody", "--time-zone", "UTC").code == 1)
    }
}

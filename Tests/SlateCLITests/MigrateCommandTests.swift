import Foundation
import SlateCore
import Testing

@testable import SlateCLI

// `slate migrate --to` in-process, file to file (the PostgreSQL round trip is
// SlateCoreTests' MigrationRoundTripTests, in the PostgreSQL pass): the copy exports the
// same, carries undo on, and what cannot be copied is refused in words, leaving both as
// they were.

@Suite struct MigrateCommandTests {
    @Test func aFileCopiedToANewFileExportsTheSameAndUndoCarriesOn() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Storyboard the opening", "--notes", "crème brûlée").code == 0)
        #expect(cli.run("add", "Cut the trailer").code == 0)
        #expect(cli.run("done", "1").code == 0)
        let copy = cli.folder.appendingPathComponent("copy.sqlite").path
        let migrated = cli.run("migrate", "--to", copy)
        #expect(migrated.code == 0, "\(migrated.err)")
        #expect(migrated.out.contains("Copied"))
        #expect(migrated.out.contains("Checked: the copy holds exactly the original's rows."))
        let original = cli.run("export", "--format", "json")
        let copied = cli.run(["--db", copy, "export", "--format", "json"], withDatabase: false)
        #expect(original.code == 0 && copied.code == 0, "\(copied.err)")
        #expect(copied.out == original.out)
        // The history came along: the copy undoes the same last change as the original.
        let undoneThere = cli.run(["--db", copy, "undo"], withDatabase: false)
        let undoneHere = cli.run("undo")
        #expect(undoneThere.code == 0 && undoneThere.out == undoneHere.out, "\(undoneThere.err)")
        #expect(cli.run(["--db", copy, "export", "--format", "json"], withDatabase: false).out == cli.run("export", "--format", "json").out)
    }

    @Test func theJSONReportNamesTheRowsAndTheRevision() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "One").code == 0)
        let copy = cli.folder.appendingPathComponent("copy.sqlite").path
        let report = try #require(try cli.json("migrate", "--to", copy) as? [String: Any])
        #expect(report["verified"] as? Bool == true)
        #expect(report["to"] as? String == copy)
        let rows = try #require(report["rows"] as? [String: Int])
        #expect(rows["tasks"] == 1)
        #expect((report["revision"] as? Int ?? 0) > 0)
    }

    @Test func whatCannotBeCopiedIsRefusedInWords() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Kept").code == 0)
        let noDestination = cli.run("migrate")
        #expect(noDestination.code != 0)
        #expect(noDestination.err.contains("--to"))

        let existing = cli.folder.appendingPathComponent("existing.sqlite").path
        try "not empty".write(toFile: existing, atomically: true, encoding: .utf8)
        let onto = cli.run("migrate", "--to", existing)
        #expect(onto.code == 1)
        #expect(onto.err.contains("exists already"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "not empty", "left as it was")

        let missing = cli.run(["--db", cli.folder.appendingPathComponent("none.sqlite").path, "migrate", "--to",
                               cli.folder.appendingPathComponent("to.sqlite").path], withDatabase: false)
        #expect(missing.code == 1)
        #expect(!FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("to.sqlite").path))

        let lock = try BoardFile.claimForServing(cli.database)
        #expect(lock != nil)
        let served = cli.run("migrate", "--to", cli.folder.appendingPathComponent("while-served.sqlite").path)
        #expect(served.code == 1)
        #expect(served.err.contains("stop it first"))
        #expect(!FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("while-served.sqlite").path))
        withExtendedLifetime(lock) {}
    }
}

import Foundation
import SlateCore
import Testing

@testable import SlateCLI

// `slate backup` and `slate restore` in-process: a copy that restores, a restore refused
// while a server holds the database, and clear errors for what cannot be done.

@Suite struct BackupCommandTests {
    @Test func aBackupRestoresWhatItHeld() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Storyboard the opening").code == 0)
        let copy = cli.folder.appendingPathComponent("copy.sqlite").path
        let backup = cli.run("backup", copy)
        #expect(backup.code == 0, "\(backup.err)")
        #expect(backup.out.contains("Backed up"))
        #expect(cli.run("add", "Written after the backup").code == 0)
        let restored = cli.run("restore", copy)
        #expect(restored.code == 0, "\(restored.err)")
        #expect(restored.out.contains("The database as it was is kept at"))
        let listed = cli.run("list", "--status", "all")
        #expect(listed.out.contains("Storyboard the opening"))
        #expect(!listed.out.contains("Written after the backup"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter { $0.hasPrefix("slate.sqlite.before-restore-") }
        #expect(kept.count == 1)
    }

    @Test func aRestoreIsRefusedWhileAServerHoldsTheDatabaseUnlessForced() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "In the backup").code == 0)
        let copy = cli.folder.appendingPathComponent("copy.sqlite").path
        #expect(cli.run("backup", copy).code == 0)
        #expect(cli.run("add", "Not in the backup").code == 0)
        let lock = try BoardFile.claimForServing(cli.database)
        #expect(lock != nil)
        let refused = cli.run("restore", copy)
        #expect(refused.code == 1)
        #expect(refused.err.contains("stop it first"))
        #expect(cli.run("list").out.contains("Not in the backup"), "nothing changed")
        #expect(cli.run("restore", "--force", copy).code == 0)
        #expect(!cli.run("list").out.contains("Not in the backup"))
        withExtendedLifetime(lock) {}
    }

    @Test func whatCannotBeBackedUpOrRestoredIsSaidClearly() throws {
        let cli = try CLIHarness()
        let missing = cli.run("backup", cli.folder.appendingPathComponent("copy.sqlite").path)
        #expect(missing.code == 1)
        #expect(missing.err.contains("No database at"))
        let notABackup = cli.folder.appendingPathComponent("notes.txt").path
        try "not a database".write(toFile: notABackup, atomically: true, encoding: .utf8)
        let refused = cli.run("restore", notABackup)
        #expect(refused.code == 1)
        #expect(refused.err.contains("Cannot restore"))
        #expect(cli.run("restore").code == 2, "the file is required")
    }

    @Test func aBackupIntoAMissingFolderOrOntoAFolderSaysSoInWords() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Storyboard the opening").code == 0)
        let missingFolder = cli.folder.appendingPathComponent("backups").path
        let intoMissing = cli.run("backup", missingFolder + "/nightly.sqlite")
        #expect(intoMissing.code == 1)
        #expect(intoMissing.err.contains("the folder \(missingFolder) does not exist"), "\(intoMissing.err)")
        #expect(!intoMissing.err.contains("unable to open database file") && !intoMissing.err.contains(".partial-"),
                "no SQLite message, no temporary name: \(intoMissing.err)")
        let ontoFolder = cli.run("backup", cli.folder.path)
        #expect(ontoFolder.code == 1)
        #expect(ontoFolder.err.contains("it is a folder"), "\(ontoFolder.err)")
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter { $0.contains(".partial-") }
        #expect(left.isEmpty, "no temporary copy is left behind: \(left)")
    }

    @Test func aRefusedRestoreLeavesNoCopyOfTheDatabaseBehind() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Storyboard the opening").code == 0)
        let missing = cli.run("restore", cli.folder.appendingPathComponent("no-such-backup.sqlite").path)
        #expect(missing.code == 1)
        #expect(missing.err.contains("no such file"), "\(missing.err)")
        let notABackup = cli.folder.appendingPathComponent("notes.txt").path
        try "not a database".write(toFile: notABackup, atomically: true, encoding: .utf8)
        #expect(cli.run("restore", notABackup).code == 1)
        #expect(cli.run("restore", cli.database).code == 1, "the database itself is no backup")
        let kept = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter { $0.contains(".before-restore-") }
        #expect(kept.isEmpty, "a refused restore copies nothing: \(kept)")
        #expect(cli.run("list").out.contains("Storyboard the opening"))
    }

    @Test func aRestoreOnANewMachineCreatesTheDatabasesFolder() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Storyboard the opening").code == 0)
        let copy = cli.folder.appendingPathComponent("copy.sqlite").path
        #expect(cli.run("backup", copy).code == 0)
        let fresh = cli.folder.appendingPathComponent("new-machine/slate/slate.sqlite").path
        let restored = cli.run(["--db", fresh, "restore", copy], withDatabase: false)
        #expect(restored.code == 0, "\(restored.err)")
        #expect(cli.run(["--db", fresh, "list"], withDatabase: false).out.contains("Storyboard the opening"))
    }
}

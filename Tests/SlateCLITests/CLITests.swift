import Foundation
import Testing

@testable import SlateCLI

@Suite struct CLIErrorTests {
    @Test func aMistypedCommandSuggestsTheNearestOne() throws {
        let result = try CLIHarness().run("lsit")
        #expect(result.code == 2)
        #expect(result.err == """
            error: unknown command 'lsit'. Did you mean 'list'?
            Usage: slate <command>
            See 'slate --help'.

            """)
    }

    @Test func aMistypedOptionSuggestsTheNearestOne() throws {
        let result = try CLIHarness().run("list", "--priorty", "high")
        #expect(result.code == 2)
        #expect(result.err == """
            error: unknown option '--priorty'. Did you mean '--priority'?
            Usage: slate list [options]
            See 'slate list --help'.

            """)
    }

    @Test func aBadValueNamesTheOptionAndTheAcceptedForms() throws {
        let result = try CLIHarness().run("add", "Budget", "--priority", "urgent")
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("error: invalid value 'urgent' for --priority: expected none, low, medium, high, critical (or 0–4, or ! to !!!!).\n"))
        let sort = try CLIHarness().run("list", "--sort", "size")
        #expect(sort.err.hasPrefix("error: invalid value 'size' for --sort: expected default, priority, due, created, title, manual.\n"))
    }

    /// A value that can never be right is a command-line mistake (exit 2), whatever is
    /// in the database; a well-formed reference to a missing task is "not found" (exit 1).
    @Test func malformedColoursAndTaskReferencesExitWithTwo() throws {
        let cli = try CLIHarness()
        let colour = cli.run("lists", "add", "Music", "--color", "red")
        #expect(colour.code == 2)
        #expect(colour.err == """
            error: invalid value 'red' for --color: expected #RRGGBB, six hexadecimal digits such as #FF6B6B.
            Usage: slate lists add [options] <name>
            See 'slate lists add --help'.

            """)
        #expect(cli.run("lists").out.contains("Music") == false, "nothing was added")
        let icon = cli.run("lists", "add", "Music", "--icon", "no spaces")
        #expect(icon.code == 2)
        #expect(icon.err.hasPrefix("error: invalid value 'no spaces' for --icon: expected a name of letters, digits, dots and dashes, such as film or music.note.\n"))
        let reference = cli.run("done", "abc")
        #expect(reference.code == 2)
        #expect(reference.err.hasPrefix("error: 'abc' is not a task number (such as 12 or #12) or an id prefix of at least 4 characters.\nUsage: slate done <task>...\n"))
        #expect(cli.run("done", "12").code == 1)
    }

    @Test func ruleRefusalsExitWithOneAndWriteNothing() throws {
        let cli = try CLIHarness()
        let blank = cli.run("add", "   ")
        #expect(blank.code == 1)
        #expect(blank.err.hasPrefix("error: "))
        let missing = cli.run("done", "12")
        #expect(missing.code == 1)
        #expect(missing.err == "error: No task #12.\n")
        cli.run("add", "One")
        let partly = cli.run("done", "1", "7")
        #expect(partly.code == 1)
        let listed = try #require(try cli.json("list") as? [String: Any])
        let tasks = try #require(listed["tasks"] as? [[String: Any]])
        #expect(tasks.first?["isCompleted"] as? Bool == false, "#1 was not completed because #7 does not exist")
        let duplicate = cli.run("lists", "add", "Story")
        cli.run("lists", "add", "Story")
        #expect(duplicate.code == 0)
        #expect(cli.run("lists", "add", "story").code == 1, "a list name in use (any case) is a rule refusal")
    }

    @Test func aSubtaskBelowTheDeepestLevelIsRefusedByAddAndEdit() throws {
        let cli = try CLIHarness()
        cli.run("add", "Level 1")
        for level in 2...16 { #expect(cli.run("add", "Level \(level)", "--parent", "\(level - 1)").code == 0) }
        let added = cli.run("add", "Level 17", "--parent", "16")
        #expect(added.code == 1)
        #expect(added.err.hasPrefix("error: Subtasks can be at most 16 levels deep"))
        cli.run("add", "Loose")
        #expect(cli.run("edit", "17", "--parent", "16").code == 1)
        #expect(cli.run("edit", "1", "--parent", "5").err == "error: A task cannot be a subtask of itself or of its own subtasks.\n")
    }

    @Test func missingArgumentsAndConflictingOptionsAreUsageErrors() throws {
        let cli = try CLIHarness()
        #expect(cli.run("show").err.hasPrefix("error: missing <task>: the task's number or id prefix.\n"))
        #expect(cli.run("list", "--today", "--flagged").err.hasPrefix("error: choose one of --today, --flagged.\n"))
        #expect(cli.run("lists", "add", "Story").code == 0)
        #expect(cli.run("add", "Outline act 2", "--list", "Story").code == 0)
        #expect(cli.run("lists", "delete", "Story").err.hasPrefix("error: say what happens to its tasks: --keep-tasks or --delete-tasks.\n"))
        #expect(cli.run("lists", "delete", "Story", "--keep-tasks", "--delete-tasks").code == 2)
        // A list with no task at all needs no choice.
        #expect(cli.run("lists", "add", "Music").code == 0)
        #expect(cli.run("lists", "delete", "Music").out == "Deleted list Music; it had no tasks. Undo with: slate undo\n")
        #expect(cli.run("list", "--limit", "0").err.hasPrefix("error: invalid value '0' for --limit: expected a whole number greater than 0.\n"))
    }
}

@Suite struct CLIHelpTests {
    @Test func commandHelpIsGeneratedFromTheDeclaration() throws {
        let result = try CLIHarness().run("done", "--help")
        #expect(result.code == 0)
        #expect(result.out == """
            Complete tasks

            Usage: slate done <task>...

            Arguments:
              <task>...  Task numbers or id prefixes.

            Global options:
                  --db <path>                      The database file (also SLATE_DB; default $XDG_DATA_HOME/slate/slate.sqlite).
                  --database <path-or-url>         The database: a file, as --db, or postgresql://USER@HOST/NAME for a shared PostgreSQL database (also SLATE_DATABASE).
                  --database-password-file <file>  A file holding the PostgreSQL password (else SLATE_DATABASE_PASSWORD, PGPASSWORD or ~/.pgpass).
                  --account <name>                 Work on this account's board, in its time zone, e.g. one of a server's users (also SLATE_ACCOUNT; default: local).
                  --json                           Print JSON (on every reading command).
                  --no-color                       No colour (also NO_COLOR).
              -h, --help                           Show help.
                  --version                        Show the version.

            """)
    }

    @Test func rootHelpListsEveryCommandAndTheExitCodes() throws {
        let result = try CLIHarness().run("--help", withDatabase: false)
        #expect(result.code == 0)
        for command in ["add", "list", "show", "edit", "done", "reopen", "flag", "unflag", "delete", "move",
                        "clear-completed", "lists", "stats", "undo", "redo", "export", "import", "sample"] {
            #expect(result.out.contains("\n  \(command) "), "\(command) is listed")
        }
        #expect(result.out.contains("Exit codes:\n  0  success\n  1  not found, or a rule refused the change (nothing was written)\n  2  the command line is wrong"))
        #expect(try CLIHarness().run("--version", withDatabase: false).out == "slate 0.1.0\n")
    }
}

@Suite struct ServeOptionTests {
    @Test func aTrustedProxyThatIsNotAnAddressIsAUsageError() throws {
        let cli = try CLIHarness()
        let result = cli.run("serve", "--port", "0", "--trusted-proxy", "proxy.local")
        #expect(result.code == 2)
        #expect(result.err.contains("--trusted-proxy") && result.err.contains("CIDR"))
    }
}

@Suite struct TokenCommandTests {
    @Test func tokensAreCreatedWithAnExpiryListedAndRevoked() throws {
        let cli = try CLIHarness()
        #expect(cli.run("user", "add", "ana").code == 0)
        #expect(cli.run("token", "create", "--user", "ana", "--label", "phone", "--expires", "30d").code == 0)
        #expect(cli.run("token", "create", "--user", "ana", "--label", "ci").code == 0)
        let listed = cli.run("token", "list", "--user", "ana", "--json")
        let tokens = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])
        #expect(tokens.count == 2)
        let phone = try #require(tokens.first { $0["label"] as? String == "phone" })
        #expect(phone["expires"] is String && tokens.first { $0["label"] as? String == "ci" }?["expires"] is NSNull)
        #expect(phone["lastUsed"] is NSNull)

        let id = try #require(phone["id"] as? String)
        let revoked = cli.run("token", "revoke", String(id.prefix(8)), "--user", "ana")
        #expect(revoked.code == 0 && revoked.out.contains("phone"))
        #expect(cli.run("token", "list", "--user", "ana").out.contains("ci"))
        #expect(!cli.run("token", "list", "--user", "ana").out.contains("phone"))
        let gone = cli.run("token", "revoke", String(id.prefix(8)), "--user", "ana")
        #expect(gone.code == 1 && gone.err.contains("No token of ana has an id starting with '\(id.prefix(8))'"), "gone: \(gone.err)")
        let short = cli.run("token", "revoke", String(id.prefix(3)), "--user", "ana")
        #expect(short.code == 1 && short.err.contains("at least the first 8 characters") && short.err.contains("slate token list --user ana"))
    }

    @Test func aBadLifetimeIsAUsageError() throws {
        let cli = try CLIHarness()
        #expect(cli.run("user", "add", "ana").code == 0)
        let result = cli.run("token", "create", "--user", "ana", "--expires", "soon")
        #expect(result.code == 2 && result.err.contains("--expires") && result.err.contains("30d"))
        #expect(cli.run("token", "list", "--user", "ana").out.contains("No tokens for ana (create one with: slate token create --user ana"),
                "the hint names the account listed, not the default one")
    }

    @Test func anUnknownAccountIsRefusedNamingTheAccountsThereAre() throws {
        let cli = try CLIHarness()
        #expect(cli.run("user", "add", "ana").code == 0)
        #expect(cli.run("user", "add", "ben").code == 0)
        for words in [["token", "create", "--user", "zed"], ["token", "list", "--user", "zed"], ["user", "edit", "zed", "--time-zone", "UTC"],
                      ["user", "passwd", "zed"]] {
            let result = cli.run(words)
            #expect(result.code == 1, "\(words)")
            #expect(result.err.contains("No account is named 'zed'; the accounts are ana, ben, local."), "\(words): \(result.err)")
        }
    }
}

@Suite struct DatabaseFileTests {
    @Test func anEmptyDatabaseFileIsRefusedWithAClearMessage() throws {
        let cli = try CLIHarness()
        #expect(FileManager.default.createFile(atPath: cli.database, contents: Data()))
        let result = cli.run("list")
        #expect(result.code != 0 && result.err.contains("empty (0 bytes)") && result.err.contains("backup"))
        #expect((try FileManager.default.attributesOfItem(atPath: cli.database)[.size] as? NSNumber)?.intValue == 0)
    }

    @Test func anEmptyDatabasePathIsRefusedAndAnEmptyVariableIsUnset() throws {
        let cli = try CLIHarness()
        let empty = cli.run(["--db", "", "add", "Vanishing task"], withDatabase: false)
        #expect(empty.code == 1 && empty.err == "error: --db is empty: give the database file's path (or, with --database, a postgresql:// URL).\n")
        // SLATE_DB= is unset: the default database under XDG_DATA_HOME takes the task, and keeps it.
        cli.environment = ["SLATE_DB": "", "XDG_DATA_HOME": cli.folder.appendingPathComponent("xdg").path]
        #expect(cli.run(["add", "Kept task"], withDatabase: false).code == 0)
        let listed = cli.run(["list"], withDatabase: false)
        #expect(listed.code == 0 && listed.out.contains("Kept task"))
        #expect(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("xdg/slate/slate.sqlite").path))
    }

    @Test func aReadingCommandMakesNoFolderForAMistypedDatabase() throws {
        let cli = try CLIHarness()
        let missing = cli.folder.appendingPathComponent("typo/dir").path
        for words in [["list"], ["stats"], ["lists"], ["show", "1"], ["export"]] {
            let result = cli.run(["--db", missing + "/slate.sqlite"] + words, withDatabase: false)
            #expect(result.code == 1 && result.err == "error: No database at \(missing)/slate.sqlite: the folder \(missing) does not exist.\n", "\(words)")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("typo").path))
        // A command that writes still makes the folder and the board.
        #expect(cli.run(["--db", missing + "/slate.sqlite", "add", "First task"], withDatabase: false).code == 0)
        #expect(cli.run(["--db", missing + "/slate.sqlite", "list"], withDatabase: false).out.contains("First task"))
    }

    @Test func theFolderSlateCreatesForItsDatabaseIsTheOwnersAlone() throws {
        let cli = try CLIHarness()
        let folder = cli.folder.appendingPathComponent("data/slate").path
        #expect(cli.run(["--db", folder + "/slate.sqlite", "add", "Storyboard the opening"], withDatabase: false).code == 0)
        let mode = (try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o700, "the tasks and password hashes are not readable by other users: \(String(mode ?? 0, radix: 8))")
    }
}

/// `--account NAME` (or SLATE_ACCOUNT): the CLI on a server's database works on one of its
/// users' boards, not on a `local` account of its own.
@Suite struct AccountOptionTests {
    @Test func aCommandWorksOnTheNamedAccountsBoard() throws {
        let cli = try CLIHarness()
        #expect(cli.run("user", "add", "ana").code == 0)
        #expect(cli.run("--account", "ana", "add", "Check the gate at the studio").code == 0)
        #expect(cli.run("--account", "Ana", "list").out.contains("Check the gate at the studio"), "names without case")
        #expect(!cli.run("list").out.contains("Check the gate"), "the local account's board is another")
        let missing = cli.run("--account", "zed", "list")
        #expect(missing.code != 0)
        #expect(missing.err.contains("No account is named 'zed'") && missing.err.contains("ana"))
    }

    /// The machine (the harness) is in Paris; ana lives in New York. Her board's typed
    /// times, "today" and days are hers, as the server reads them for her clients.
    @Test func theNamedAccountsTimesAreReadInItsZone() throws {
        let cli = try CLIHarness()
        #expect(cli.run("user", "add", "ana").code == 0)
        #expect(cli.run("user", "edit", "ana", "--time-zone", "America/New_York").code == 0)
        #expect(cli.run("--account", "ana", "add", "Call the caterer fri 5pm").code == 0)
        #expect(cli.run("add", "Call the florist fri 5pm").code == 0)
        let tasks = try #require(try cli.json("--account", "ana", "list") as? [String: Any])["tasks"] as? [[String: Any]]
        // Friday 4 December 2026, 17:00 in New York (22:00 UTC), not 17:00 in Paris.
        #expect(tasks?.first?["due"] as? String == "2026-12-04T22:00:00.000Z")
        let local = try #require(try cli.json("list") as? [String: Any])["tasks"] as? [[String: Any]]
        #expect(local?.first?["due"] as? String == "2026-12-04T16:00:00.000Z", "the local account stays in the machine's zone")
        let shown = cli.run("--account", "ana", "list").out
        #expect(shown.contains("17:00") && !shown.contains("23:00"), "shown in her zone: \(shown)")
    }
}

/// `--alert` takes a date and time as `--due` does, and `show` says each alert as people do.
@Suite struct AlertOptionTests {
    @Test func aLocalMomentIsAnAlertAndShowSaysEveryAlert() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Send the cue sheet", "--due", "2026-12-24 17:00", "--alert", "15m", "--alert", "1d@9:00",
                        "--alert", "2026-12-23 18:00").code == 0)
        let task = try #require(try cli.json("show", "1") as? [String: Any])
        // 18:00 in Paris (the harness's zone) is 17:00 UTC.
        #expect(task["alerts"] as? [String] == ["15m", "1d@09:00", "2026-12-23T17:00:00.000Z"])
        let shown = cli.run("show", "1").out
        #expect(shown.contains("Alerts") && shown.contains("15 minutes before, 1 day before at 09:00, at "), "\(shown)")
        #expect(shown.contains("23 Dec 2026 18:00"), "\(shown)")
        let refused = cli.run("add", "Book the stage", "--alert", "2026-12-23")
        #expect(refused.code == 2 && refused.err.contains("--alert") && refused.err.contains("2026-12-24 09:00"), "\(refused.err)")
    }
}

@Suite struct EditOutputTests {
    @Test func anEditThatChangesNothingSaysSo() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Book the sound stage", "--priority", "high").code == 0)
        let same = cli.run("edit", "1", "--priority", "high", "--title", "Book the sound stage")
        #expect(same.code == 0)
        #expect(same.out == "#1 “Book the sound stage” already has those values; nothing changed.\n")
        let changed = cli.run("edit", "1", "--priority", "low")
        #expect(changed.out.hasPrefix("Updated #1 “Book the sound stage”"))
    }
}


@Suite struct AddWarningsJSONTests {
    @Test func addJSONCarriesQuickEntrysWarnings() throws {
        let cli = try CLIHarness()
        let warned = try #require(try cli.json("add", "Call the lab feb 30") as? [String: Any])
        #expect(warned["title"] as? String == "Call the lab feb 30")
        #expect((warned["warnings"] as? [String])?.first?.contains("“feb 30” is not a date") == true)
        let plain = try #require(try cli.json("add", "Call the lab") as? [String: Any])
        #expect(plain["warnings"] as? [String] == [])
    }
}

/// A task named twice is one task; a parent and its subtask deleted together in either order.
@Suite struct RepeatedNamesTests {
    @Test func aTaskNamedTwiceIsActedOnOnce() throws {
        let cli = try CLIHarness()
        #expect(cli.run("add", "Book the stage").code == 0)
        let flagged = cli.run("flag", "1", "#1")
        #expect(flagged.code == 0, "\(flagged.err)")
        #expect(flagged.out.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "\(flagged.out)")
        #expect(cli.run("done", "1", "1").code == 0)
        #expect(try (cli.json("show", "1") as? [String: Any])?["isCompleted"] as? Bool == true)
    }

    @Test func aParentAndItsSubtaskAreDeletedInEitherOrder() throws {
        for order in [["1", "2"], ["2", "1"]] {
            let cli = try CLIHarness()
            #expect(cli.run("add", "Shoot the pickups").code == 0)
            #expect(cli.run("add", "Book the crew", "--parent", "1").code == 0)
            #expect(cli.run("add", "Other task").code == 0)
            let deleted = cli.run(["delete"] + order)
            #expect(deleted.code == 0, "\(order): \(deleted.err)")
            let left = try #require(try cli.json("list", "--status", "all") as? [String: Any])
            #expect((left["tasks"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Other task"], "\(order)")
        }
    }
}

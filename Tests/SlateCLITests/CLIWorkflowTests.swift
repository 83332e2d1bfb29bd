import Foundation
import Testing

@testable import SlateCLI

@Suite struct CLIWorkflowTests {
    @Test func quickEntryIsShownBackAsUnderstood() throws {
        let cli = try CLIHarness()
        cli.run("lists", "add", "Story", "--color", "#FF6B6B")
        let result = cli.run("add", "Storyboard", "the", "inciting", "incident", "tomorrow", "5pm", "!high", "#Story")
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out == "Added #1 “Storyboard the inciting incident” — due Tomorrow 17:00 · !!! high · ● Story · alert at the due time\n")
        let task = try #require(try cli.json("show", "1") as? [String: Any])
        #expect(task["title"] as? String == "Storyboard the inciting incident")
        #expect(task["due"] as? String == "2026-11-30T16:00:00.000Z")
        #expect(task["priority"] as? String == "high")
        #expect(task["list"] as? String == "Story")
    }

    @Test func theJSONShapeOfATaskIsStable() throws {
        let cli = try CLIHarness()
        let added = try #require(try cli.json("add", "Lock budget", "--due", "2026-12-24", "--tag", "money", "--flag") as? [String: Any])
        #expect(added["warnings"] as? [String] == [], "add prints the task and quick entry's warnings")
        // The task record itself, as `show` prints it (without the subtasks it adds).
        let task = try #require(try cli.json("show", "1") as? [String: Any]).filter { $0.key != "subtasks" }
        #expect(Set(added.keys) == Set(task.keys).union(["warnings"]))
        #expect(Set(task.keys) == [
            "id", "number", "title", "notes", "priority", "isCompleted", "completedAt", "isFlagged", "due", "isAllDay",
            "isOverdue", "listId", "list", "parentId", "order", "tags", "recurrence", "alerts", "subtaskCount", "created", "modified",
        ])
        #expect(task["due"] as? String == "2026-12-24")
        #expect(task["isAllDay"] as? Bool == true)
        #expect(task["tags"] as? [String] == ["money"])
        #expect(task["isFlagged"] as? Bool == true)
        #expect(task["created"] as? String == "2026-11-29T09:15:00.000Z")
        #expect((task["id"] as? String).map { $0 == $0.lowercased() && UUID(uuidString: $0) != nil } == true)
        #expect(task["completedAt"] is NSNull && task["list"] is NSNull)
    }

    @Test func theSampleBoardListsCriticalFirstWithTheOverdueOneMarked() throws {
        let cli = try CLIHarness()
        #expect(cli.run("sample").out == "Loaded the sample production board: 5 lists, 8 tasks. Try: slate list\n")
        #expect(cli.run("sample").out == "You have lists already; the sample board was not loaded.\n")
        let listing = try #require(try cli.json("list") as? [String: Any])
        let tasks = try #require(listing["tasks"] as? [[String: Any]])
        #expect(tasks.count == 8 && listing["total"] as? Int == 8)
        #expect(Set(tasks.prefix(2).compactMap { $0["title"] as? String }) == ["Lock final production budget", "Write Act 2 outline"])
        #expect(tasks.filter { $0["isOverdue"] as? Bool == true }.compactMap { $0["title"] as? String } == ["Write Act 2 outline"])

        let text = cli.run("list").out
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "All tasks · 8 tasks")
        #expect(lines[1].contains("Write Act 2 outline") || lines[1].contains("Lock final production budget"))
        #expect(text.contains("2 days ago") && text.contains("Tomorrow"))
        #expect(!text.contains("\u{1B}["), "no colour when not a terminal")
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let cli = try CLIHarness()
        cli.run("sample")
        cli.terminalWidth = 60
        let colored = cli.run("list").out
        #expect(colored.contains("\u{1B}[31m2 days ago\u{1B}[0m"), "overdue in red")
        #expect(colored.split(separator: "\n").allSatisfy { visibleWidth(String($0)) <= 60 }, "fits the terminal")
        cli.environment["NO_COLOR"] = "1"
        #expect(!cli.run("list").out.contains("\u{1B}["))
        cli.environment = [:]
        #expect(!cli.run("list", "--no-color").out.contains("\u{1B}["))
    }

    /// Wide characters (CJK, emoji) take two terminal columns: the columns after a title
    /// still line up, and a cut title still fits the terminal.
    @Test func wideCharactersKeepTheColumnsAligned() throws {
        let cli = try CLIHarness()
        for title in ["日本語のタスク名前がとても長いです", "Launch day 🚀", "Plain title", "한국어 할 일"] {
            #expect(cli.run("add", title, "tomorrow").code == 0)
        }
        let piped = cli.run("list").out.split(separator: "\n").filter { $0.hasSuffix("Tomorrow") }
        #expect(piped.count == 4)
        #expect(Set(piped.map { displayWidth($0) }).count == 1, "\(piped.map { displayWidth($0) })")
        cli.terminalWidth = 40
        let cut = cli.run("list").out.split(separator: "\n").filter { $0.contains("Tomorrow") }
        #expect(cut.count == 4 && cut.allSatisfy { visibleWidth(String($0)) <= 40 }, "\(cut.map { visibleWidth(String($0)) })")
        #expect(cut.contains { $0.contains("日本語") && $0.contains("…") })
        #expect(displayWidth("日本") == 4 && displayWidth("🚀") == 2 && displayWidth("é") == 1 && displayWidth("👩‍💻") == 2)
    }

    /// Deleting a task deletes its subtasks, and says how many.
    @Test func deletingATaskSaysHowManySubtasksWentWithIt() throws {
        let cli = try CLIHarness()
        cli.run("add", "Shoot the finale")
        cli.run("add", "Book the crane", "--parent", "1")
        cli.run("add", "Hire the operator", "--parent", "2")
        cli.run("add", "Unrelated")
        #expect(cli.run("delete", "1").out == "Deleted #1 “Shoot the finale”\nDeleted 2 subtasks with it.\nUndo with: slate undo\n")
        #expect(cli.run("delete", "4").out == "Deleted #4 “Unrelated”\nUndo with: slate undo\n")
    }

    /// An action that leaves a task as it was says so instead of claiming it did something.
    @Test func anActionOnATaskAlreadyInThatStateSaysSo() throws {
        let cli = try CLIHarness()
        cli.run("add", "Budget")
        #expect(cli.run("reopen", "1").out == "#1 “Budget” was not completed\n")
        #expect(cli.run("unflag", "1").out == "#1 “Budget” was not flagged\n")
        #expect(cli.run("done", "1").out == "Completed #1 “Budget”\n")
        #expect(cli.run("done", "1").out == "#1 “Budget” was already completed\n")
        #expect(cli.run("flag", "1").out == "Flagged #1 “Budget”\n")
        #expect(cli.run("flag", "1").out == "#1 “Budget” was already flagged\n")
        let itself = cli.run("move", "1", "--before", "1")
        #expect(itself.code == 1 && itself.err == "error: A task cannot be moved before itself.\n")
    }

    @Test func completeUndoRedoAndTheCompletedSection() throws {
        let cli = try CLIHarness()
        cli.run("sample")
        let done = cli.run("done", "1")
        #expect(done.out == "Completed #1 “Write Act 2 outline”\n")
        let active = cli.run("list").out
        #expect(!active.contains("Write Act 2 outline"))
        #expect(active.hasSuffix("1 completed hidden; show them with --status all.\n"))
        let all = cli.run("list", "--status", "all").out
        #expect(all.contains("\nCompleted\n"))
        #expect(cli.run("undo").out == "Undid: Complete “Write Act 2 outline”\n")
        #expect(cli.run("redo").out == "Redid: Complete “Write Act 2 outline”\n")
        #expect(cli.run("undo").code == 0)
        #expect(cli.run("undo").out == "Undid: Load the sample board\n")
        #expect(cli.run("undo").out == "Nothing to undo.\n")
    }

    @Test func searchFiltersAndAnEmptyResultNamesTheSearch() throws {
        let cli = try CLIHarness()
        cli.run("sample")
        let found = try #require(try cli.json("list", "--search", "WOODY") as? [String: Any])
        #expect((found["tasks"] as? [[String: Any]])?.count == 2)
        #expect(cli.run("list", "--search", "zeppelin").out == "All tasks matching “zeppelin” · 0 tasks\nNo tasks match “zeppelin”.\n")
        let sound = try #require(try cli.json("list", "--list", "sound", "--priority", "low") as? [String: Any])
        #expect((sound["tasks"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Record foley for Pizza Planet truck"])
        let typo = cli.run("list", "--list", "Sond")
        #expect(typo.code == 1 && typo.err == "error: No list named \"Sond\" — did you mean \"Sound\"?\n")
    }

    @Test func editMoveFlagDeleteAndClearCompleted() throws {
        let cli = try CLIHarness()
        for title in ["A", "B", "C"] { cli.run("add", title) }
        #expect(cli.run("edit", "2", "--title", "Bee", "--due", "fri", "--priority", "high").out == "Updated #2 “Bee” — due Fri · !!! high\n")
        #expect(cli.run("edit", "2", "--due", "none").code == 0)
        #expect(cli.run("edit", "2").err.hasPrefix("error: nothing to change"))
        #expect(cli.run("move", "3", "--before", "1").out == "Moved #3 “C” before #1\n")
        let manual = try #require(try cli.json("list", "--sort", "manual") as? [String: Any])
        #expect((manual["tasks"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["C", "A", "Bee"])
        #expect(cli.run("flag", "1").out == "Flagged #1 “A”\n")
        let flagged = try #require(try cli.json("list", "--flagged") as? [String: Any])
        #expect(flagged["total"] as? Int == 1)
        cli.run("done", "1", "3")
        #expect(cli.run("clear-completed").out == "Cleared 2 completed tasks. Undo with: slate undo\n")
        #expect(cli.run("delete", "2").out == "Deleted #2 “Bee”\nUndo with: slate undo\n")
        #expect(cli.run("list").out == "All tasks · 0 tasks\nNo tasks — add one with: slate add <text>\n")
    }

    @Test func listsCanBeAddedRenamedRecolouredMovedAndDeleted() throws {
        let cli = try CLIHarness()
        cli.run("lists", "add", "Story", "--color", "#ff6b6b", "--icon", "book")
        cli.run("lists", "add", "Sound")
        cli.run("add", "Foley", "#Sound")
        #expect(cli.run("lists", "add", "story").err == "error: A list named \"Story\" already exists.\n")
        #expect(cli.run("lists", "rename", "Sound", "Audio").out == "Renamed list to ● Audio\n")
        #expect(cli.run("lists", "edit", "audio", "--color", "#A8E6CF").code == 0)
        cli.run("lists", "move", "Audio", "--before", "Story")
        let lists = try #require(try cli.json("lists") as? [[String: Any]])
        #expect(lists.compactMap { $0["name"] as? String } == ["Audio", "Story"])
        #expect(lists.first?["activeCount"] as? Int == 1 && lists.first?["color"] as? String == "#A8E6CF")
        #expect(cli.run("lists", "delete", "Audio", "--keep-tasks").out == "Deleted list Audio; its 1 task was moved to the Inbox. Undo with: slate undo\n")
        let inbox = try #require(try cli.json("list", "--inbox") as? [String: Any])
        #expect(inbox["total"] as? Int == 1)
        #expect(cli.run("lists", "delete", "Story", "--keep-tasks").out == "Deleted list Story; it had no tasks. Undo with: slate undo\n")
    }

    @Test func statsPrintsTotalsAndAChart() throws {
        let cli = try CLIHarness()
        cli.run("sample")
        cli.run("done", "8")
        let stats = try #require(try cli.json("stats") as? [String: Any])
        #expect(stats["total"] as? Int == 8 && stats["completed"] as? Int == 1 && stats["overdue"] as? Int == 1)
        #expect((stats["activeByPriority"] as? [String: Int])?["high"] == 3)
        #expect((stats["completionsPerDay"] as? [[String: Any]])?.last?["count"] as? Int == 1)
        let text = cli.run("stats").out
        #expect(text.contains("  Completed today  1\n"))
        #expect(text.contains("█"))
    }

    @Test func theDatabaseDefaultsToTheXDGDataFolderAndIsCreatedOnFirstUse() throws {
        let cli = try CLIHarness()
        cli.environment["XDG_DATA_HOME"] = cli.folder.appendingPathComponent("data").path
        #expect(cli.run(["add", "First"], withDatabase: false).code == 0)
        #expect(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("data/slate/slate.sqlite").path))
        cli.environment["SLATE_DB"] = cli.database
        cli.run(["add", "Second"], withDatabase: false)
        let listing = try #require(try cli.json("list") as? [String: Any])
        #expect(listing["total"] as? Int == 1, "SLATE_DB wins over XDG_DATA_HOME")
    }
}

@Suite struct CLITransferTests {
    @Test func exportThenImportIntoAnEmptyDatabaseRoundTrips() throws {
        let source = try CLIHarness()
        source.run("sample")
        source.run("done", "2")
        source.run("edit", "3", "--tags", "rig,sim", "--repeat", "every 2 weeks")
        let file = source.folder.appendingPathComponent("board.json").path
        #expect(source.run("export", "--format", "json", "--output", file).err == "Exported to \(file).\n")

        let target = try CLIHarness()
        let imported = target.run("import", file)
        #expect(imported.code == 0, "\(imported.err)")
        #expect(imported.out == "Imported 8 new tasks, updated 0, created 5 lists.\n")
        let before = try #require(try source.json("list", "--status", "all") as? [String: Any])
        let after = try #require(try target.json("list", "--status", "all") as? [String: Any])
        #expect(NSDictionary(dictionary: before) == NSDictionary(dictionary: after))
        #expect(target.run("export", "--format", "json").out == source.run("export", "--format", "json").out)
    }

    @Test func aMalformedFileChangesNothingAndNamesTheLine() throws {
        let cli = try CLIHarness()
        cli.run("add", "Existing")
        let file = cli.folder.appendingPathComponent("broken.txt").path
        try "Buy milk due:2026-12-01\nx 2026-13-45 Broken date\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = cli.run("import", file, "--format", "todotxt")
        #expect(result.code == 1)
        #expect(result.err.hasPrefix("error: line 2: "))
        let listed = try #require(try cli.json("list", "--status", "all") as? [String: Any])
        #expect(listed["total"] as? Int == 1)
        #expect(cli.run("import", cli.folder.appendingPathComponent("missing.json").path).err.hasPrefix("error: No file at "))
    }

    /// A folder where a file belongs, or a folder that is missing, is said in words, not as
    /// Foundation's "(NSCocoaErrorDomain error 512.)".
    @Test func aFileThatCannotBeReadOrWrittenIsExplained() throws {
        let cli = try CLIHarness()
        cli.run("add", "Existing")
        let folder = cli.folder.path
        #expect(cli.run("import", folder).err == "error: Cannot read \(folder): it is a folder; give a file's path.\n")
        #expect(cli.run("export", "-o", folder).err == "error: Cannot write \(folder): it is a folder; give a file's path.\n")
        let missing = folder + "/no/such/board.json"
        let result = cli.run("export", "-o", missing)
        #expect(result.code == 1 && result.err == "error: Cannot write \(missing): no such file or folder.\n")
    }

    @Test func everyFormatExports() throws {
        let cli = try CLIHarness()
        cli.run("sample")
        #expect(cli.run("export", "--format", "ics").out.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(cli.run("export", "--format", "todotxt").out.contains("Write Act 2 outline"))
        let taskwarrior = try JSONSerialization.jsonObject(with: Data(cli.run("export", "--format", "taskwarrior").out.utf8))
        #expect((taskwarrior as? [[String: Any]])?.count == 8)
        #expect(cli.run("export", "--format", "csv").err.hasPrefix("error: invalid value 'csv' for --format: expected json, ics, todotxt, taskwarrior."))
    }
}

@Suite struct CLIAccountTests {
    @Test func usersAndTokensArePrintedOnceAndMistakesNamed() throws {
        let cli = try CLIHarness()
        let added = cli.run("user", "add", "ana")
        #expect(added.code == 0 && added.out.hasPrefix("Added ana with the password\n  "))
        let password = added.out.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        #expect(password.count == 20)
        #expect(cli.run("user", "add", "ANA").err == "error: An account named ANA already exists.\n")
        #expect(cli.run("user", "passwd", "nobody").err == "error: No account is named 'nobody'; the accounts are ana, local.\n")
        let token = try #require(try cli.json("token", "create", "--user", "ana", "--label", "phone") as? [String: Any])
        #expect((token["token"] as? String)?.count == 43)
        let users = try #require(try cli.json("user", "list") as? [[String: Any]])
        #expect(users.compactMap { $0["name"] as? String } == ["ana", "local"], "local is the CLI's own account")
    }
}

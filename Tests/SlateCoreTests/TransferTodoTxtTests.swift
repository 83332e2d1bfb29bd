import Foundation
import SlateCore
import Testing

@Suite struct TransferTodoTxtTests {
    @Test func exportWritesOneLinePerTask() throws {
        let (slate, clock) = try makeSlate()
        _ = try TransferBoard(slate, clock)
        let text = String(decoding: try slate.export(.todotxt), as: UTF8.self)
        #expect(text == """
            (A) 2026-11-29 Write Act 2 outline +Story @writing @act-2 due:2026-11-27 rec:2w
            (B) 2026-11-29 Outline scene 3 +Story due:2026-12-01
            x 2026-11-29 2026-11-29 Lock final production budget +Big_Shoot pri:C
            (D) 2026-11-29 Buy milk @home
            2026-11-29 \(TransferBoard.posterTitle)
            2026-11-29 Tighten dialogue +Story

            """)
    }

    @Test func exportThenImportKeepsWhatTheFormatCarries() throws {
        let (source, clock) = try makeSlate()
        let board = try TransferBoard(source, clock)
        let (target, _) = try makeSlate(at: clock)
        let summary = try target.importData(try source.export(.todotxt), format: nil)
        #expect(summary == ImportSummary(listsCreated: 2, tasksCreated: 6, tasksUpdated: 0))
        #expect(try target.lists().map(\.list.name) == ["Story", "Big Shoot"], "+Big_Shoot is the list Big Shoot")

        let tasks = try target.tasks().sorted { $0.number < $1.number }
        let originals = [board.outline, board.scene, board.budget, board.milk, board.poster, board.dialogue]
        #expect(tasks.map(\.title) == originals.map(\.title))
        #expect(tasks.map(\.priority) == originals.map(\.priority))
        #expect(tasks.map(\.isCompleted) == originals.map(\.isCompleted))
        #expect(tasks.map(\.tags) == originals.map(\.tags))
        #expect(tasks.map(\.recurrence) == originals.map(\.recurrence))
        let listNames = try Dictionary(uniqueKeysWithValues: target.lists().map { ($0.list.id, $0.list.name) })
        #expect(tasks.map { $0.listID.flatMap { listNames[$0] } } == ["Story", "Story", "Big Shoot", nil, nil, "Story"])
        // Days only: the creation and completion times and the due time are not kept.
        #expect(tasks.allSatisfy { $0.created == date(2026, 11, 29) })
        #expect(tasks[2].completedAt == date(2026, 11, 29))
        #expect(tasks[0].due == date(2026, 11, 27) && tasks[0].isAllDay)
        #expect(tasks[1].due == date(2026, 12, 1) && tasks[1].isAllDay, "the 9:30 due time is lost")
    }

    /// A title's own `+project` (a second one on the line it came from) stays in the title,
    /// and the line written for it names the task's list first, so it reads back there.
    @Test func aLineWithTwoProjectsGoesBackToItsList() throws {
        let (source, clock) = try makeSlate()
        _ = try source.importData(data(["(A) Call the lab +Inbox +Work due:2026-12-10", "Book the studio +Sound_Stage +Work @phone"]), format: .todotxt)
        let text = String(decoding: try source.export(.todotxt), as: UTF8.self)
        #expect(text.contains("Call the lab +Inbox +Work due:2026-12-10\n"), "the Inbox is named before the title's project: \(text)")
        #expect(text.contains("Book the studio +Sound_Stage +Work @phone\n"))

        let (target, _) = try makeSlate(at: clock)
        _ = try target.importData(Data(text.utf8), format: .todotxt)
        let names = try Dictionary(uniqueKeysWithValues: target.lists().map { ($0.list.id, $0.list.name) })
        let placed = try target.tasks().map { ($0.title, $0.listID.flatMap { names[$0] }) }.sorted { $0.0 < $1.0 }
        #expect(placed.map(\.0) == ["Book the studio +Work", "Call the lab +Work"])
        #expect(placed.map(\.1) == ["Sound Stage", nil])
        #expect(try target.export(.todotxt) == source.export(.todotxt), "a second round trip changes nothing")
    }

    @Test func readsTheFormatsVariants() throws {
        let (slate, _) = try makeSlate()
        let admin = try slate.createList(name: "Home_Admin")
        let file = data([
            "(A) Call Mom @Phone +Family due:2026-12-01 +Later",
            "",
            "x 2026-11-28 2026-11-20 (B) Pay rent +Home_Admin",
            "x 2026-11-27 Sweep pri:D",
            "(E) 2026-11-25 Water plants rec:+1m t:2026-12-01",
            "Email http://example.com/a:b notes\r",
        ])
        let summary = try slate.importData(file, format: .todotxt)
        #expect(summary == ImportSummary(listsCreated: 1, tasksCreated: 5, tasksUpdated: 0))
        let tasks = try slate.tasks().sorted { $0.number < $1.number }
        #expect(tasks.map(\.title) == ["Call Mom +Later", "Pay rent", "Sweep", "Water plants t:2026-12-01", "Email http://example.com/a:b notes"])
        #expect(tasks.map(\.priority) == [.critical, .high, .low, .low, Priority.none])
        let family = try #require(try slate.list(named: "Family"))
        #expect(tasks[0].tags == ["phone"] && tasks[0].due == date(2026, 12, 1) && tasks[0].listID == family.id)
        #expect(tasks[1].isCompleted && tasks[1].completedAt == date(2026, 11, 28) && tasks[1].created == date(2026, 11, 20))
        #expect(tasks[1].listID == admin.id, "an existing list named with the underscore wins")
        #expect(tasks[3].recurrence == Recurrence(.monthly) && tasks[3].created == date(2026, 11, 25))
    }

    @Test(arguments: [
        (["(A) Fine task", "Another fine task", "Bad date due:2026-13-01"], "line 3: due has an invalid date '2026-13-01'"),
        (["", "", "x 2026-02-30 Sweep"], "line 3: the completion date has an invalid date '2026-02-30'"),
        (["Repeat rec:2b"], "line 1: rec must be a number and d, w, m or y, such as rec:2w; got '2b'"),
        (["Fine", "(A) +Story @tag due:2026-12-01"], "line 2: The title cannot be blank."),
        (["Odd pri:AB"], "line 1: pri must be a letter from A to Z; got 'AB'"),
    ])
    func aMalformedFileChangesNothingAndNamesTheLine(lines: [String], message: String) throws {
        let (slate, clock) = try makeSlate()
        _ = try TransferBoard(slate, clock)
        let error = try expectImportFails(slate, data(lines), format: .todotxt)
        #expect(error?.description == message)
    }
}

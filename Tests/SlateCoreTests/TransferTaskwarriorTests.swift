import Foundation
import SlateCore
import Testing

@Suite struct TransferTaskwarriorTests {
    @Test func exportWritesTaskwarriorsShape() throws {
        let (slate, clock) = try makeSlate()
        let board = try TransferBoard(slate, clock)
        let text = String(decoding: try slate.export(.taskwarrior), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "[" && lines.last == "]" && lines.count == 8)
        let outline = board.outline.id.uuidString.lowercased()
        #expect(lines[1] == #"  {"uuid":"\#(outline)","description":"Write Act 2 outline","status":"pending","entry":"20261129T091600Z","modified":"20261129T091600Z","due":"20261126T230000Z","priority":"H","project":"Story","tags":["writing","act-2"],"recur":"2weeks","annotations":[{"entry":"20261129T091600Z","description":"Woody; the museum, subplot\nSecond line with a \\ backslash"}],"slatepriority":"critical","slateflagged":"yes","slateorder":"1","slatealerts":"15m"},"#)
        #expect(lines[3] == #"  {"uuid":"\#(board.budget.id.uuidString.lowercased())","description":"Lock final production budget","status":"completed","entry":"20261129T091803Z","modified":"20261129T101803Z","end":"20261129T101803Z","priority":"M","project":"Big Shoot","slateorder":"1"},"#)
        #expect(lines[2].contains(#""due":"20261201T083000Z""#) && lines[2].contains(#""slateparent":"\#(outline)""#))
        #expect(lines[6].contains(#""slateorder":"1.5""#))
    }

    @Test func exportThenImportKeepsWhatTheFormatCarries() throws {
        let (source, clock) = try makeSlate()
        _ = try TransferBoard(source, clock)
        let (target, _) = try makeSlate(at: clock)
        let summary = try target.importData(try source.export(.taskwarrior), format: nil)
        #expect(summary == ImportSummary(listsCreated: 2, tasksCreated: 6, tasksUpdated: 0))
        let expected = try portableTasks(source)
        let actual = try portableTasks(target)
        #expect(actual.map(\.task) == expected.map(\.task))
        #expect(actual.map(\.list) == expected.map(\.list))
        let again = try target.importData(try source.export(.taskwarrior), format: .taskwarrior)
        #expect(again == ImportSummary(listsCreated: 0, tasksCreated: 0, tasksUpdated: 0), "uuids match: nothing to write")
    }

    @Test func readsARealExport() throws {
        let (slate, _) = try makeSlate()
        let file = """
            [
            {"id":1,"description":"Pay rent","entry":"20261101T080000Z","modified":"20261102T080000Z","status":"pending","uuid":"d6a1f9a4-2f0e-4c55-9a57-1d0c1a0c0001","project":"Home.Admin","priority":"H","tags":["Bills","home"],"due":"20261201T170000Z","urgency":12.3},
            {"id":0,"description":"Old thing","status":"deleted","uuid":"d6a1f9a4-2f0e-4c55-9a57-1d0c1a0c0002","entry":"20261101T080000Z","end":"20261102T080000Z"},
            {"id":0,"description":"Weekly review","status":"recurring","uuid":"d6a1f9a4-2f0e-4c55-9a57-1d0c1a0c0003","entry":"20261101T080000Z","due":"20261122T230000Z","recur":"weekly","mask":"--"},
            {"id":2,"description":"Weekly review","status":"pending","uuid":"d6a1f9a4-2f0e-4c55-9a57-1d0c1a0c0004","parent":"d6a1f9a4-2f0e-4c55-9a57-1d0c1a0c0003","imask":2,"recur":"weekly","due":"20261129T230000Z","entry":"20261101T080000Z"},
            {"id":0,"description":"Filed taxes","status":"completed","uuid":"d6a1f9a4-2f0e-4c55-9a57-1d0c1a0c0005","entry":"20261101T080000Z","end":"20261128T100000Z","priority":"L","annotations":[{"entry":"20261101T080000Z","description":"first note"},{"entry":"20261101T090000Z","description":"second note"}]},
            {"id":3,"description":"Someday","status":"waiting","uuid":"d6a1f9a4-2f0e-4c55-9a57-1d0c1a0c0006","wait":"20261220T000000Z","entry":"20261101T080000Z","priority":"M","recur":"fortnight","due":"20261231T120000Z"}
            ]
            """
        let summary = try slate.importData(Data(file.utf8), format: nil)
        #expect(summary == ImportSummary(listsCreated: 1, tasksCreated: 4, tasksUpdated: 0),
                "deleted tasks and the pending instance of a template are skipped")
        let tasks = try slate.tasks(TaskQuery(sort: .created)).sorted { $0.title < $1.title }
        #expect(tasks.map(\.title) == ["Filed taxes", "Pay rent", "Someday", "Weekly review"])
        let (taxes, rent, someday, review) = (tasks[0], tasks[1], tasks[2], tasks[3])
        #expect(rent.priority == .high && rent.tags == ["bills", "home"] && rent.due == date(2026, 12, 1, 18) && !rent.isAllDay)
        #expect(rent.created == date(2026, 11, 1, 9) && rent.modified == date(2026, 11, 2, 9))
        #expect(try slate.list(named: "Home.Admin")?.id == rent.listID)
        #expect(review.id == UUID(uuidString: "d6a1f9a4-2f0e-4c55-9a57-1d0c1a0c0003"), "the template is the repeating task")
        #expect(review.recurrence == Recurrence(.weekly) && review.due == date(2026, 11, 30) && review.isAllDay,
                "due on its pending instance; midnight in the Slate's calendar is an all-day date")
        #expect(review.parentID == nil, "Taskwarrior's parent is a recurrence template, not a parent task")
        #expect(taxes.isCompleted && taxes.completedAt == date(2026, 11, 28, 11) && taxes.notes == "first note\nsecond note")
        #expect(taxes.priority == .low && someday.priority == .medium && !someday.isCompleted)
        #expect(someday.recurrence == Recurrence(.weekly, interval: 2))
    }

    /// What `task export` (Taskwarrior 2.6.2) printed after `task import` of a TransferBoard
    /// export: the repeating task became a template (status recurring, same uuid) with two
    /// generated instances; tags were sorted; ids and urgency were added.
    static let taskwarriorRoundTrip = #"""
[
{"id":1,"description":"Write Act 2 outline","due":"20261126T230000Z","entry":"20261129T091600Z","mask":"--","modified":"20261129T230534Z","priority":"H","project":"Story","recur":"2weeks","rtype":"periodic","slateflagged":"yes","slateorder":"1","slatepriority":"critical","slatereminder":"900","status":"recurring","uuid":"100fec86-4fa5-4fbe-8f98-2d1f38d07921","annotations":[{"entry":"20261129T091600Z","description":"Woody; the museum, subplot\nSecond line with a \\ backslash"}],"tags":["act-2","writing"],"urgency":18.8732},
{"id":2,"description":"Outline scene 3","due":"20261201T083000Z","entry":"20261129T091701Z","modified":"20261129T091701Z","priority":"H","project":"Story","slateorder":"2","slateparent":"100fec86-4fa5-4fbe-8f98-2d1f38d07921","slatereminder":"3600","status":"pending","uuid":"34ba848b-d17c-451d-86fc-75329c47a99d","urgency":15.1637},
{"id":3,"description":"Buy milk","entry":"20261129T091803Z","modified":"20261129T091803Z","priority":"L","slateorder":"1","status":"pending","uuid":"da28b0ab-6ca4-4e4a-b4e7-9a4a3da418bc","tags":["home"],"urgency":2.6},
{"id":4,"description":"Design the poster: café crème, Ünïcödé ☕️ and 🎬 emoji that run past seventy-five octets","entry":"20261129T091803Z","modified":"20261129T091803Z","slateorder":"2","status":"pending","uuid":"74f74c93-4711-4af8-b202-755fd100070b","urgency":0},
{"id":5,"description":"Tighten dialogue","entry":"20261129T101803Z","modified":"20261129T101803Z","project":"Story","slateorder":"1.5","status":"pending","uuid":"8e481817-f187-41eb-a759-29fe1237b488","urgency":1},
{"id":6,"description":"Write Act 2 outline","due":"20261126T230000Z","entry":"20261129T230534Z","imask":0,"modified":"20261129T091600Z","parent":"100fec86-4fa5-4fbe-8f98-2d1f38d07921","priority":"H","project":"Story","recur":"2weeks","rtype":"periodic","slateflagged":"yes","slateorder":"1","slatepriority":"critical","slatereminder":"900","status":"pending","uuid":"49c18432-4c01-4ddb-a4c7-bc5927e0709d","annotations":[{"entry":"20261129T091600Z","description":"Woody; the museum, subplot\nSecond line with a \\ backslash"}],"tags":["act-2","writing"],"urgency":18.8732},
{"id":7,"description":"Write Act 2 outline","due":"20261210T230000Z","entry":"20261129T230534Z","imask":1,"modified":"20261129T091600Z","parent":"100fec86-4fa5-4fbe-8f98-2d1f38d07921","priority":"H","project":"Story","recur":"2weeks","rtype":"periodic","slateflagged":"yes","slateorder":"1","slatepriority":"critical","slatereminder":"900","status":"pending","uuid":"957ab0a0-417c-4bd1-90c4-c6d0b67e33d4","annotations":[{"entry":"20261129T091600Z","description":"Woody; the museum, subplot\nSecond line with a \\ backslash"}],"tags":["act-2","writing"],"urgency":12.4732},
{"id":0,"description":"Lock final production budget","end":"20261129T101803Z","entry":"20261129T091803Z","modified":"20261129T101803Z","priority":"M","project":"Big Shoot","slateorder":"1","status":"completed","uuid":"6b08e420-41e4-4255-ac17-6392c9ee08b9","urgency":4.9}
]
"""#

    @Test func readsBackWhatTaskwarriorMadeOfAnExport() throws {
        let (slate, _) = try makeSlate()
        let summary = try slate.importData(Data(Self.taskwarriorRoundTrip.utf8), format: nil)
        #expect(summary == ImportSummary(listsCreated: 2, tasksCreated: 6, tasksUpdated: 0), "the two generated instances are skipped")
        let outline = try slate.task(id: UUID(uuidString: "100fec86-4fa5-4fbe-8f98-2d1f38d07921")!).model
        #expect(outline.title == "Write Act 2 outline" && !outline.isCompleted)
        #expect(outline.recurrence == Recurrence(.weekly, interval: 2) && outline.due == date(2026, 11, 27) && outline.isAllDay)
        #expect(outline.priority == .critical && outline.isFlagged)
        #expect(outline.alerts == [TaskAlert(.beforeDue(seconds: 900))], "an export from before alerts: its slatereminder becomes one")
        #expect(outline.notes == TransferBoard.outlineNotes && outline.tags == ["act-2", "writing"])
        let scene = try slate.task(id: UUID(uuidString: "34ba848b-d17c-451d-86fc-75329c47a99d")!).model
        #expect(scene.parentID == outline.id && scene.due == date(2026, 12, 1, 9, 30) && !scene.isAllDay)
        let dialogue = try slate.task(id: UUID(uuidString: "8e481817-f187-41eb-a759-29fe1237b488")!).model
        #expect(dialogue.order == 1.5 && dialogue.listID == outline.listID)
        let budget = try slate.task(id: UUID(uuidString: "6b08e420-41e4-4255-ac17-6392c9ee08b9")!).model
        #expect(budget.isCompleted && budget.completedAt == date(2026, 11, 29, 11, 18).addingTimeInterval(3))
        #expect(try slate.lists().map(\.list.name) == ["Story", "Big Shoot"])
    }

    @Test func readsOneObjectPerLine() throws {
        let (slate, _) = try makeSlate()
        let file = data([
            #"{"description":"First","status":"pending","entry":"20261101T080000Z"},"#,
            #"{"description":"Second","status":"pending","entry":"20261101T080000Z","due":"2026-12-01T10:00:00Z"}"#,
        ])
        #expect(TransferFormat.detect(file) == .taskwarrior)
        #expect(try slate.importData(file, format: nil) == ImportSummary(tasksCreated: 2))
        let broken = data([#"{"description":"First"}"#, #"{"description":"#])
        let error = try expectImportFails(slate, broken, format: .taskwarrior)
        #expect(error?.location == .line(2))
    }

    @Test(arguments: [
        (#"[{"description":"ok"},{"description":"bad","due":"20261301T000000Z"}]"#, "task 2: due has an invalid date '20261301T000000Z'"),
        (#"[{"status":"pending"}]"#, "task 1: description is missing"),
        (#"[{"description":"x","priority":"X"}]"#, "task 1: priority must be H, M or L; got 'X'"),
        (#"[{"description":"x","recur":"weekdays"}]"#, "task 1: recur has no Slate form: 'weekdays'; Slate repeats every n days, weeks, months or years"),
        // 3 × this count overflows an Int: it was a crash of the whole server.
        (#"[{"description":"x","recur":"4611686018427387904quarters"}]"#,
         "task 1: The repeat interval must be between 1 and 1000; got 4611686018427387904."),
        (#"[{"description":"x","status":"gone"}]"#, "task 1: status must be pending, waiting, completed, deleted or recurring; got 'gone'"),
        (#"[{"description":"x","tags":[1]}]"#, "task 1: tags must be a list of text values; got 1"),
        (#""tasks""#, "A Taskwarrior export must be a JSON array of tasks."),
    ])
    func aMalformedFileChangesNothingAndNamesTheRecord(file: String, message: String) throws {
        let (slate, clock) = try makeSlate()
        _ = try TransferBoard(slate, clock)
        let error = try expectImportFails(slate, Data(file.utf8), format: .taskwarrior)
        #expect(error?.description == message)
    }
}

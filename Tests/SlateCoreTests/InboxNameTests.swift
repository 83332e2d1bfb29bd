import Foundation
import SlateCore
import Testing

/// "Inbox" is where tasks without a list are: no list takes the name, and another app's
/// Inbox in an imported file is Slate's.
@Suite struct InboxNameTests {
    @Test func noListIsNamedInbox() throws {
        let (slate, _) = try makeSlate()
        for name in ["Inbox", " inbox ", "INBOX"] {
            let error = #expect(throws: SlateError.self) { try slate.createList(name: name) }
            #expect(error?.description.contains("choose another name") == true, "\(name)")
        }
        let list = try slate.createList(name: "Dailies")
        #expect(throws: SlateError.self) { try slate.updateList(list.id, name: "Inbox") }
        #expect(try slate.createList(name: "Inbox zero").name == "Inbox zero")
    }

    @Test func anImportedInboxIsSlatesInbox() throws {
        let (slate, _) = try makeSlate()
        let file = "Call the lab +Inbox\nBook the crane +Crew\n"
        _ = try slate.importData(Data(file.utf8), format: .todotxt)
        let tasks = try slate.tasks()
        #expect(tasks.first { $0.title == "Call the lab" }?.listID == nil)
        #expect(tasks.first { $0.title == "Book the crane" }?.listID != nil)
        #expect(try slate.lists().map(\.list.name) == ["Crew"])
    }

    /// An export from before no list could be named Inbox, or another app's file whose list
    /// is its Inbox, imports into Slate's Inbox instead of failing whole.
    @Test func aFilesOwnInboxListIsSlatesInbox() throws {
        let (slate, _) = try makeSlate()
        let json = """
            {"format":"slate","lists":[{"id":"6f1c1e0a-0000-4000-8000-000000000001","name":"Inbox"},
              {"id":"6f1c1e0a-0000-4000-8000-000000000002","name":"Crew"}],
             "tasks":[{"title":"Buy milk","listID":"6f1c1e0a-0000-4000-8000-000000000001"},
              {"title":"Book the crane","listID":"6f1c1e0a-0000-4000-8000-000000000002"}]}
            """
        _ = try slate.importData(Data(json.utf8), format: .json)
        let ics = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Test//EN", "X-WR-CALNAME:Inbox",
                   "BEGIN:VTODO", "UID:call@example.com", "SUMMARY:Call the lab", "END:VTODO", "END:VCALENDAR"].joined(separator: "\r\n") + "\r\n"
        _ = try slate.importData(Data(ics.utf8), format: .ics)
        let tasks = try slate.tasks()
        #expect(tasks.first { $0.title == "Buy milk" }?.listID == nil)
        #expect(tasks.first { $0.title == "Call the lab" }?.listID == nil)
        #expect(tasks.first { $0.title == "Book the crane" }?.listID != nil)
        #expect(try slate.lists().map(\.list.name) == ["Crew"])
    }
}

/// "#Inbox" in quick entry is the Inbox (no list), in any case: it was looked up as a list
/// and refused ("No list named Inbox"), and the web app offered it as a new list.
@Suite struct QuickEntryInboxTests {
    @Test func hashInboxIsNoListAndSaysInbox() throws {
        let (slate, clock) = try makeSlate()
        let parser = QuickEntryParser(now: clock.now, calendar: testCalendar)
        for line in ["Buy milk #Inbox", "Buy milk #inbox", "#INBOX Buy milk", "Buy milk #Inbox #inbox"] {
            let entry = try parser.parse(line)
            #expect(entry.title == "Buy milk")
            #expect(entry.listName == nil)
            #expect(entry.understood.first { $0.kind == .list }?.description == "Inbox")
        }
        #expect(throws: QuickEntryError.self) { try parser.parse("Buy milk #Inbox #Work") }
        let task = try slate.addTask(TaskDraft(title: try parser.parse("Buy milk #Inbox").title))
        #expect(task.listID == nil)
    }
}

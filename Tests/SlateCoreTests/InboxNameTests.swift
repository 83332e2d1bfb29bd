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
}

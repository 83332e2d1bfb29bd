import Foundation
import SlateCore
import SlateDAV
import SlateStore
import Testing

/// A collection's listing and its address, kept under the account's revision: asked again
/// while nothing changed, the same answer; after a change here or in another process, the
/// change.
@Suite("CalDAV: listings and collections kept until the account changes")
struct KeptListingTests {
    static let inbox = "/dav/calendars/ana/inbox/"

    func etags(_ dav: DAVHarness, _ path: String = Self.inbox, as account: String = "ana") async throws -> String {
        let reply = try await dav.propfind(path, depth: "1", ["d:getetag"], as: account)
        #expect(reply.status == 207)
        return reply.text
    }

    func displayName(_ dav: DAVHarness, _ path: String, as account: String = "ana") async throws -> String? {
        let reply = try await dav.propfind(path, ["d:displayname"], as: account)
        guard reply.status == 207 else { return nil }
        return reply.text.components(separatedBy: "displayname>").dropFirst().first?.components(separatedBy: "<").first
    }

    @Test("A listing asked again while nothing changed is the same; an object added, changed or deleted here or elsewhere shows in the next",
          arguments: [true, false])
    func listingAskedAgain(identifies: Bool) async throws {
        try await DAVHarness.withSharedStore { path in
            let dav = try DAVHarness(path: path, identifies: identifies)
            #expect(try await dav.put("a.ics", DAVHarness.todo(uid: "a", summary: "First")).status == 201)
            #expect(try await dav.put("b.ics", DAVHarness.todo(uid: "b", summary: "Second")).status == 201)
            let first = try await etags(dav)
            #expect(first.occurrences(of: "<d:response>") == 3)
            #expect(try await etags(dav) == first)

            // Another process adds one task and changes another: both in the next listing.
            let other = Slate(container: try Slate.openContainer(path: path), accountID: dav.accounts["ana"]!)
            let added = try other.addTask(TaskDraft(title: "Added elsewhere"))
            let changed = try #require(try other.tasks(TaskQuery(status: .all)).first { $0.title == "First" })
            _ = try other.updateTask(changed.id, TaskPatch(title: "Changed elsewhere"))
            let afterOther = try await etags(dav)
            #expect(afterOther.contains("\(added.id.uuidString).ics"))
            let etagOfA = try #require(try await dav.send(.get, Self.inbox + "a.ics").headers["ETag"])
            let listed = "<d:getetag>\(etagOfA.replacingOccurrences(of: "\"", with: "&quot;"))</d:getetag>"
            #expect(afterOther.contains(listed) && !first.contains(listed))

            // The same for a first sync and a bare calendar-query, which share the listing.
            let sync = try await dav.send("REPORT", Self.inbox, body: ReportTests().sync(""))
            #expect(sync.text.contains("\(added.id.uuidString).ics"))

            // Deleted here: gone from the next listing, and from a first sync.
            #expect(try await dav.send(.delete, Self.inbox + "b.ics").status == 204)
            let afterDelete = try await etags(dav)
            #expect(!afterDelete.contains("b.ics") && afterDelete.occurrences(of: "<d:response>") == 3)
            #expect(!(try await dav.send("REPORT", Self.inbox, body: ReportTests().sync(""))).text.contains("b.ics"))

            // Another account's listing of its own Inbox is its own.
            #expect(try await dav.put("ben.ics", DAVHarness.todo(uid: "ben", summary: "Ben's"), as: "ben").status == 201)
            let ben = try await etags(dav, "/dav/calendars/ben/inbox/", as: "ben")
            #expect(ben.contains("ben.ics") && !ben.contains("a.ics"))
        }
    }

    @Test("A collection's address looked up again is the kept one until its list is renamed, deleted or made, here or elsewhere",
          arguments: [true, false])
    func collectionAskedAgain(identifies: Bool) async throws {
        try await DAVHarness.withSharedStore { path in
            let dav = try DAVHarness(path: path, identifies: identifies)
            let other = Slate(container: try Slate.openContainer(path: path), accountID: dav.accounts["ana"]!)
            let list = try other.createList(name: "Errands")
            let address = "/dav/calendars/ana/\(list.id.uuidString.lowercased())/"
            #expect(try await displayName(dav, address) == "Errands")
            #expect(try await displayName(dav, address) == "Errands")

            try other.updateList(list.id, name: "Shopping")
            #expect(try await displayName(dav, address) == "Shopping")
            // Nothing else of the account changed: still the new name, and a multiget there finds its objects.
            #expect(try await dav.put("milk.ics", DAVHarness.todo(uid: "milk", summary: "Milk"), in: list.id.uuidString.lowercased()).status == 201)
            #expect(try await displayName(dav, address) == "Shopping")

            // Another account asking for the same address finds nothing.
            #expect(try await dav.propfind(address, ["d:displayname"], as: "ben").status == 404)

            try other.deleteList(list.id, tasks: .deleteTasks)
            #expect(try await dav.propfind(address, ["d:displayname"]).status == 404)
            #expect(try await dav.send(.get, address + "milk.ics").status == 404)

            // A collection made here under a name asked for before is found at once.
            let named = "/dav/calendars/ana/groceries/"
            #expect(try await dav.propfind(named, ["d:displayname"]).status == 404)
            #expect(try await dav.send("MKCALENDAR", named).status == 201)
            #expect(try await displayName(dav, named) == "groceries")
        }
    }

    @Test("A collection's address is kept across task changes, and not across its list's rename or deletion through this server")
    func collectionKeptAcrossTaskChanges() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        let list = try slate.createList(name: "Errands")
        let address = "/dav/calendars/ana/\(list.id.uuidString.lowercased())/"
        #expect(try await displayName(dav, address) == "Errands")
        // Tasks change (a PUT here, a task made in Slate): the kept address still answers.
        #expect(try await dav.put("milk.ics", DAVHarness.todo(uid: "milk", summary: "Milk"), in: list.id.uuidString.lowercased()).status == 201)
        _ = try slate.addTask(TaskDraft(title: "Bread", listID: list.id))
        #expect(try await displayName(dav, address) == "Errands")
        // The list renamed in Slate, on the server's own store: the next answer has the new name.
        try slate.updateList(list.id, name: "Shopping")
        #expect(try await displayName(dav, address) == "Shopping")
        #expect(try await dav.send("PROPPATCH", address, body: Self.rename("Market")).status == 207)
        #expect(try await displayName(dav, address) == "Market")
        try slate.deleteList(list.id, tasks: .deleteTasks)
        #expect(try await dav.propfind(address, ["d:displayname"]).status == 404)
    }

    static func rename(_ name: String) -> String {
        "<?xml version=\"1.0\"?><d:propertyupdate xmlns:d=\"DAV:\"><d:set><d:prop><d:displayname>\(name)</d:displayname></d:prop></d:set></d:propertyupdate>"
    }
}

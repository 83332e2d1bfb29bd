import Foundation
import SlateCore
import Testing

/// A multiget names its objects with their ETags first (`Slate.calendarObjectTags(named:in:)`,
/// from names, lists and revisions) and reads whole objects only for answers not kept: the
/// light lookup must find exactly what the whole one finds, under the same ETags.
@Suite("CalDAV: objects named by ETag alone are the objects read whole")
struct ObjectTagsByNameTests {
    static let inbox = "/dav/calendars/ana/inbox/"

    func tags(_ slate: Slate, _ names: [String], in collection: CalendarCollectionID) throws -> [String?] {
        try slate.calendarObjectTags(named: names, in: collection).map { $0.map { "\($0.name) \($0.etag)" } }
    }

    func whole(_ slate: Slate, _ names: [String], in collection: CalendarCollectionID) throws -> [String?] {
        try slate.calendarObjects(named: names, in: collection).map { $0.map { "\($0.name) \($0.etag)" } }
    }

    @Test("Stored and default names, a task stored under another name, an occurrence served in its series, another list's task, unknown and repeated names")
    func everyKindOfName() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        #expect(try await dav.put("a.ics", DAVHarness.todo(uid: "a", summary: "Stored by name")).status == 201)
        #expect(try await dav.put("chosen-name.ics", DAVHarness.todo(uid: "chosen", summary: "Stored under a chosen name")).status == 201)
        let madeInSlate = try slate.addTask(TaskDraft(title: "Made in Slate"))
        let list = try slate.createList(name: "Errands")
        let elsewhere = try slate.addTask(TaskDraft(title: "In another list", listID: list.id))
        // A series with one completed occurrence (Thunderbird's override): the occurrence is a
        // task of its own, served inside the series' resource, never by its own name.
        let series = RecurringCompletionTests().thunderbird(completed: ["20261201"])
        #expect(try await dav.put("series.ics", DAVHarness.todo(uid: "series", summary: "Water the plants",
                                                                extra: RecurringCompletionTests().series(due: "20261201"))).status == 201)
        #expect(try await dav.put("series.ics", series).status == 204)
        let occurrence = try #require(try slate.tasks(TaskQuery(status: .all)).first { $0.title == "Water the plants" && $0.isCompleted })
        let chosen = try #require(try slate.tasks(TaskQuery(status: .all)).first { $0.title == "Stored under a chosen name" })

        let names = ["a.ics", "chosen-name.ics", "\(chosen.id.uuidString).ics", "\(madeInSlate.id.uuidString).ics", "series.ics",
                     "\(occurrence.id.uuidString).ics", "\(elsewhere.id.uuidString).ics", "missing.ics", "not-a-uuid.ics", "a.ics"]
        let light = try tags(slate, names, in: .inbox)
        #expect(light == (try whole(slate, names, in: .inbox)))
        #expect(light.map { $0 != nil } == [true, true, false, true, true, false, false, false, false, true])
        // In its own list, the other task is found by its default name, and the Inbox's are not.
        let inList = ["\(elsewhere.id.uuidString).ics", "a.ics"]
        #expect(try tags(slate, inList, in: .list(list.id)) == (try whole(slate, inList, in: .list(list.id))))
        #expect(try tags(slate, inList, in: .list(list.id)).map { $0 != nil } == [true, false])

        // The series' ETag counts its occurrence: a change to the occurrence in Slate moves both the same way.
        let before = try tags(slate, ["series.ics"], in: .inbox)
        _ = try slate.updateTask(occurrence.id, TaskPatch(title: "Watered"))
        let after = try tags(slate, ["series.ics"], in: .inbox)
        #expect(after != before)
        #expect(after == (try whole(slate, ["series.ics"], in: .inbox)))
    }

    @Test("A multiget of many objects, some answers kept and some not, is the multiget written afresh")
    func keptAndFreshTogether() async throws {
        let dav = try DAVHarness()
        let kept = KeptResponsesTests()
        let names = (0..<30).map { "item-\($0).ics" }
        for (index, name) in names.enumerated() {
            #expect(try await dav.put(name, DAVHarness.todo(uid: "item-\(index)", summary: "Item \(index)")).status == 201)
        }
        let first = try await kept.multiget(dav, names + ["missing.ics"])
        let missing = AnswerBytesTests().missing(Self.inbox + "missing.ics")
        #expect(first == (try await kept.expected(dav, names)).replacingOccurrences(of: AnswerBytesTests.tail, with: missing + AnswerBytesTests.tail))
        let changed = try #require(try dav.slate().tasks(TaskQuery(status: .all)).first { $0.title == "Item 7" })
        _ = try dav.slate().updateTask(changed.id, TaskPatch(title: "Item seven"))
        let again = try await kept.multiget(dav, names)
        #expect(again.contains("SUMMARY:Item seven"))
        #expect(again == (try await kept.expected(dav, names)))
    }

    @Test("After a listing, a multiget names its objects from it until the account changes, here or in another process")
    func multigetAfterAListing() async throws {
        try await DAVHarness.withSharedStore { path in
            let dav = try DAVHarness(path: path)
            let kept = KeptResponsesTests()
            #expect(try await dav.put("a.ics", DAVHarness.todo(uid: "a", summary: "Listed")).status == 201)
            #expect(try await dav.put("b.ics", DAVHarness.todo(uid: "b", summary: "Also listed")).status == 201)
            #expect(try await dav.propfind(Self.inbox, depth: "1", ["d:getetag"]).status == 207)
            let missing = AnswerBytesTests().missing(Self.inbox + "later.ics")
            let listedOnly = try await kept.expected(dav, ["b.ics", "a.ics"])
            #expect(try await kept.multiget(dav, ["b.ics", "later.ics", "a.ics"])
                == listedOnly.replacingOccurrences(of: AnswerBytesTests.tail, with: missing + AnswerBytesTests.tail))

            // Another process adds an object and changes one: the listing no longer holds.
            let other = Slate(container: try Slate.openContainer(path: path), accountID: dav.accounts["ana"]!)
            let added = try other.addTask(TaskDraft(title: "Added elsewhere"))
            let changed = try #require(try other.tasks(TaskQuery(status: .all)).first { $0.title == "Listed" })
            _ = try other.updateTask(changed.id, TaskPatch(title: "Changed elsewhere"))
            let names = ["b.ics", "\(added.id.uuidString).ics", "a.ics"]
            let after = try await kept.multiget(dav, names)
            #expect(after.contains("SUMMARY:Added elsewhere") && after.contains("SUMMARY:Changed elsewhere"))
            #expect(after == (try await kept.expected(dav, names)))

            // Listed again (a first sync this time), then deleted here: gone from the next multiget.
            #expect(try await dav.send("REPORT", Self.inbox, body: ReportTests().sync("")).status == 207)
            #expect(try await dav.send(.delete, Self.inbox + "b.ics").status == 204)
            let gone = AnswerBytesTests().missing(Self.inbox + "b.ics")
            #expect(try await kept.multiget(dav, ["b.ics", "a.ics"])
                == (try await kept.expected(dav, ["a.ics"])).replacingOccurrences(of: AnswerBytesTests.tail, with: gone + AnswerBytesTests.tail))
        }
    }
}

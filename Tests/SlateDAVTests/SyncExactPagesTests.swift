import Foundation
import SlateCore
import Testing

/// An incremental sync-collection with DAV:limit (RFC 6578 §3.7) never answers more than
/// `nresults` responses, also when one change touched more tasks than that: the token then
/// resumes inside the revision, and the pages together equal one unlimited sync.
@Suite("CalDAV: incremental sync pages hold at most DAV:limit responses")
struct SyncExactPagesTests {
    let paging = SyncPagingTests()
    let completion = RecurringCompletionTests()
    static let inbox = SyncPagingTests.inbox

    /// Follows the pages from `token`, checking that each one holds at most `limit` responses.
    func follow(_ dav: DAVHarness, from token: String, limit: Int,
                between: (Int) throws -> Void = { _ in }) async throws -> (pages: [SyncPagingTests.Page], token: String) {
        let (pages, token) = try await paging.follow(dav, from: token, limit: limit, between: between)
        for (number, page) in pages.enumerated() {
            #expect(page.changed.count + page.removed.count <= limit, "page \(number + 1): \(page.changed.count) changed, \(page.removed.count) removed")
            #expect(page.changed.count + page.removed.count >= 1, "page \(number + 1) is empty")
        }
        return (pages, token)
    }

    func start(_ dav: DAVHarness) async throws -> String { try await paging.page(dav, "", limit: 1000).token }

    func importTasks(_ slate: Slate, _ titles: [String]) throws -> [TaskItem] {
        let before = Set(try slate.tasks(TaskQuery(status: .all)).map(\.id))
        _ = try slate.importData(Data(titles.joined(separator: "\n").utf8), format: .todotxt)
        return try slate.tasks(TaskQuery(status: .all)).filter { !before.contains($0.id) }
    }

    @Test("One save of ten tasks, synced with limit 3: pages of 3, 3, 3 and 1, every task exactly once")
    func oneSaveInPages() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        let token = try await start(dav)
        let tasks = try importTasks(slate, (1...10).map { "Imported \($0)" })
        #expect(tasks.count == 10)
        let (pages, last) = try await follow(dav, from: token, limit: 3)
        #expect(pages.map(\.changed.count) == [3, 3, 3, 1])
        #expect(pages.map(\.isTruncated) == [true, true, true, false])
        let changed = pages.flatMap(\.changed)
        #expect(changed.count == 10 && changed.sorted() == tasks.map(paging.href).sorted())
        // The same as one unlimited sync, and nothing after it.
        let whole = try await paging.page(dav, token, limit: 1000)
        #expect(whole.changed.sorted() == changed.sorted() && whole.removed.isEmpty)
        let after = try await paging.page(dav, last, limit: 3)
        #expect(after.changed.isEmpty && after.removed.isEmpty && !after.isTruncated)
    }

    @Test("Removals and changes of one revision (a series and two tasks deleted at once), limit 2: each once, pages of at most 2")
    func mixedRevision() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        #expect(try await dav.put("series.ics", completion.thunderbird(completed: ["20261201", "20261208", "20261215", "20261222"])).status == 201)
        let plain = try (1...2).map { try slate.addTask(TaskDraft(title: "Plain \($0)")) }
        let token = try await start(dav)
        let plants = try completion.tasks(dav, "Water the plants")
        let series = try #require(plants.first { !$0.isCompleted })
        let done = plants.filter(\.isCompleted)
        #expect(done.count == 4)
        let revision = try slate.revision()
        try slate.deleteTasks([series.id] + plain.map(\.id))
        #expect(try slate.revision() == revision + 1)  // one change
        let (pages, _) = try await follow(dav, from: token, limit: 2)
        #expect(pages.count == 4)  // 3 removals and 4 new resources, 2 a page
        let removed = pages.flatMap(\.removed)
        let changed = pages.flatMap(\.changed)
        #expect(removed.sorted() == ([Self.inbox + "series.ics"] + plain.map(paging.href)).sorted())
        #expect(changed.sorted() == done.map(paging.href).sorted())
        let whole = try await paging.page(dav, token, limit: 1000)
        #expect(whole.changed.sorted() == changed.sorted() && whole.removed.sorted() == removed.sorted())
    }

    @Test("Writes between two pages of one big change: a task sent again after it changes, one not yet sent once, a new one arrives; nothing skipped")
    func writeBetweenPages() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        let token = try await start(dav)
        let tasks = try importTasks(slate, (1...6).map { "Imported \($0)" })
        // Within one change the pages go in order of name.
        let order = tasks.sorted { paging.href($0) < paging.href($1) }
        var added: TaskItem?
        let (pages, last) = try await follow(dav, from: token, limit: 2) { number in
            guard number == 2 else { return }
            _ = try slate.updateTask(order[0].id, TaskPatch(title: "Sent, then changed"))      // on page 1
            _ = try slate.updateTask(order[4].id, TaskPatch(title: "Changed before it was sent"))
            try slate.deleteTasks([order[5].id])                                                 // never sent
            added = try slate.addTask(TaskDraft(title: "Added between pages"))
        }
        let new = try #require(added)
        let changed = pages.flatMap(\.changed)
        #expect(pages.first?.changed == [order[0], order[1]].map(paging.href))
        #expect(Set(changed) == Set((order.prefix(5) + [new]).map(paging.href)))
        #expect(changed.filter { $0 == paging.href(order[0]) }.count == 2)
        #expect(changed.filter { $0 == paging.href(order[4]) }.count == 1)
        #expect(changed.count == 7)
        // The task deleted before it was sent may be reported gone once (the client ignores a name it never had).
        #expect(pages.flatMap(\.removed).allSatisfy { $0 == paging.href(order[5]) } && pages.flatMap(\.removed).count <= 1)
        let after = try await paging.page(dav, last, limit: 2)
        #expect(after.changed.isEmpty && after.removed.isEmpty && !after.isTruncated)
    }

    @Test("Limit 1: four imported at once and two deleted at once come one response a page, six pages")
    func limitOne() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        let old = try (1...2).map { try slate.addTask(TaskDraft(title: "Old \($0)")) }
        let token = try await start(dav)
        let tasks = try importTasks(slate, (1...4).map { "Imported \($0)" })
        try slate.deleteTasks(old.map(\.id))
        let (pages, _) = try await follow(dav, from: token, limit: 1)
        #expect(pages.map { $0.changed.count + $0.removed.count } == [1, 1, 1, 1, 1, 1])
        #expect(pages.flatMap(\.changed).sorted() == tasks.map(paging.href).sorted())
        #expect(pages.flatMap(\.removed).sorted() == old.map(paging.href).sorted())
    }

    @Test("A first sync in pages of 2 while four tasks are deleted at once (two already sent): the removals are paged too, each once")
    func firstSyncRemovalsPaged() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        let tasks = try (1...6).map { try slate.addTask(TaskDraft(title: "Task \($0)")) }
        let (pages, last) = try await follow(dav, from: "", limit: 2) { number in
            if number == 2 { try slate.deleteTasks(tasks.prefix(4).map(\.id)) }
        }
        #expect(pages.first?.changed == tasks.prefix(2).map(paging.href))
        #expect(pages.count == 4)  // 2 sent, then 2 left and 4 removals
        let changed = pages.flatMap(\.changed)
        let removed = pages.flatMap(\.removed)
        #expect(changed.sorted() == [tasks[0], tasks[1], tasks[4], tasks[5]].map(paging.href).sorted())
        #expect(removed.sorted() == tasks.prefix(4).map(paging.href).sorted())
        let after = try await paging.page(dav, last, limit: 2)
        #expect(after.changed.isEmpty && after.removed.isEmpty && !after.isTruncated)
    }

    @Test("A first-sync token minted before removals were paged (listed:) still brings every removal since its listing began")
    func oldListingToken() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        let tasks = try (1...4).map { try slate.addTask(TaskDraft(title: "Task \($0)")) }
        let first = try await paging.page(dav, "", limit: 2)
        #expect(first.isTruncated && first.token.contains(":paged:"))
        let began = try #require(first.token.split(separator: ":").dropFirst(3).first)
        try slate.deleteTasks([tasks[2].id])
        _ = try slate.updateTask(tasks[3].id, TaskPatch(title: "Task 4, again"))
        // Such a token's cursor may lie past a removal its pages never sent.
        let old = "urn:x-slate:sync:\(began):listed:\(try slate.revision())"
        let page = try await paging.page(dav, old, limit: 2)
        #expect(page.removed == [paging.href(tasks[2])])
        #expect(page.changed.isEmpty && !page.isTruncated)
    }

    @Test("A malformed or foreign cursor inside a revision is refused with valid-sync-token")
    func malformedCursor() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        _ = try slate.addTask(TaskDraft(title: "One"))
        let current = try slate.revision()
        for token in ["urn:x-slate:sync:0:sent:", "urn:x-slate:sync:0:sent:a:b", "urn:x-slate:sync:\(current + 5):sent:x.ics",
                      "urn:x-slate:sync:x:sent:a.ics", "urn:x-slate:sync:0:sent:%ZZ"] {
            let reply = try await dav.send("REPORT", Self.inbox, body: paging.sync(token, limit: 2))
            #expect(reply.status == 403, "\(token)")
            #expect(reply.text.contains("valid-sync-token"), "\(token)")
        }
        // A cursor this server hands out is taken.
        let ok = try await dav.send("REPORT", Self.inbox, body: paging.sync("urn:x-slate:sync:0:sent:a.ics", limit: 2))
        #expect(ok.status == 207)
    }
}

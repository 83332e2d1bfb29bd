import Foundation
import SlateCore
import Testing

/// sync-collection with DAV:limit (RFC 6578 §3.6): every 507 page moves the token on, and
/// the pages together list every resource — and every removal — exactly once, also for a
/// first sync of a collection whose oldest objects are older than the feed's window.
@Suite("CalDAV: sync-collection pages always make progress and list everything once")
struct SyncPagingTests {
    static let inbox = "/dav/calendars/ana/inbox/"

    func sync(_ token: String, limit: Int) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><d:sync-collection xmlns:d=\"DAV:\"><d:sync-token>\(token)</d:sync-token>"
            + "<d:sync-level>1</d:sync-level><d:limit><d:nresults>\(limit)</d:nresults></d:limit><d:prop><d:getetag/></d:prop></d:sync-collection>"
    }

    struct Page {
        var changed: [String] = []
        var removed: [String] = []
        var token = ""
        var isTruncated = false
    }

    func page(_ dav: DAVHarness, _ token: String, limit: Int, between: (Int) throws -> Void = { _ in }) async throws -> Page {
        let reply = try await dav.send("REPORT", Self.inbox, body: sync(token, limit: limit))
        #expect(reply.status == 207, "\(reply.text)")
        var page = Page()
        for response in reply.text.components(separatedBy: "<d:response>").dropFirst() {
            let href = response.components(separatedBy: "<d:href>")[1].components(separatedBy: "</d:href>")[0]
            if href == Self.inbox { page.isTruncated = response.contains("507"); continue }
            if response.contains("</d:href><d:status>HTTP/1.1 404") { page.removed.append(href) } else { page.changed.append(href) }
        }
        let start = try #require(reply.text.range(of: "<d:sync-token>"))
        let end = try #require(reply.text.range(of: "</d:sync-token>"))
        page.token = String(reply.text[start.upperBound..<end.lowerBound])
        return page
    }

    /// Follows 507 pages from `token` until one is complete (at most `bound` pages); each
    /// page must hand back a new token. `between` runs before page n (1-based).
    func follow(_ dav: DAVHarness, from token: String, limit: Int, bound: Int = 50,
                between: (Int) throws -> Void = { _ in }) async throws -> (pages: [Page], token: String) {
        var token = token
        var pages: [Page] = []
        for number in 1...bound {
            try between(number)
            let next = try await page(dav, token, limit: limit)
            pages.append(next)
            #expect(next.token != token, "page \(number) handed back the token it was given")
            #expect(next.changed.count + next.removed.count <= limit, "page \(number): \(next.changed.count) changed, \(next.removed.count) removed")
            token = next.token
            if !next.isTruncated { return (pages, token) }
        }
        Issue.record("no complete page after \(bound) pages: the client would loop")
        return (pages, token)
    }

    func href(_ task: TaskItem) -> String { Self.inbox + task.id.uuidString + ".ics" }

    @Test("A first sync with DAV:limit of a collection older than the change window: every task once, the sync ends")
    func firstSyncOlderThanTheWindow() async throws {
        let dav = try DAVHarness(syncHistory: 5)
        let slate = dav.slate()
        let tasks = try (1...12).map { try slate.addTask(TaskDraft(title: "Task \($0)")) }
        let (pages, _) = try await follow(dav, from: "", limit: 3)
        let changed = pages.flatMap(\.changed)
        #expect(changed.sorted() == tasks.map(href).sorted())
        #expect(Set(changed).count == changed.count)
        #expect(pages.count == 4)
    }

    @Test("A first sync in pages of 3 of one import (ten tasks, one change): pages of 3, every task once")
    func oneChangeManyTasks() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        let before = try await page(dav, "", limit: 3).token
        _ = try slate.importData(Data((1...10).map { "Imported \($0)" }.joined(separator: "\n").utf8), format: .todotxt)
        let tasks = try slate.tasks(TaskQuery(status: .all))
        #expect(tasks.count == 10)
        // One change: an incremental sync (through the feed) cuts it into pages of 3 as well.
        let incremental = try await follow(dav, from: before, limit: 3).pages
        #expect(incremental.map(\.changed.count) == [3, 3, 3, 1])
        let (pages, token) = try await follow(dav, from: "", limit: 3)
        #expect(pages.map(\.changed.count) == [3, 3, 3, 1])
        let changed = pages.flatMap(\.changed)
        #expect(changed.sorted() == tasks.map(href).sorted())
        let after = try await page(dav, token, limit: 3)
        #expect(after.changed.isEmpty && !after.isTruncated)
    }

    @Test("Changes while a first sync pages: a task deleted after it was sent comes back as 404 once, new ones arrive once")
    func changesBetweenPages() async throws {
        let dav = try DAVHarness(syncHistory: 5)
        let slate = dav.slate()
        let tasks = try (1...9).map { try slate.addTask(TaskDraft(title: "Task \($0)")) }
        var added: [TaskItem] = []
        let (pages, token) = try await follow(dav, from: "", limit: 2) { number in
            guard number == 3 else { return }
            try slate.deleteTasks([tasks[0].id])                          // sent on page 1
            // Three new ones: a later page ends on a change made after the listing began.
            added = try (10...12).map { try slate.addTask(TaskDraft(title: "Task \($0)")) }
        }
        let changed = pages.flatMap(\.changed)
        let removed = pages.flatMap(\.removed)
        #expect(pages.count == 7)  // 9 tasks, 3 added, 1 removal: 13 responses, 2 a page
        #expect(Set(changed) == Set((tasks + added).map(href)))
        #expect(Set(changed).count == changed.count)
        #expect(removed == [href(tasks[0])])
        // Up to date: the next sync has nothing.
        let after = try await page(dav, token, limit: 2)
        #expect(after.changed.isEmpty && after.removed.isEmpty && !after.isTruncated)
    }

    @Test("An incremental sync in pages of one: each change and each removal once")
    func incrementalPages() async throws {
        let dav = try DAVHarness()
        let slate = dav.slate()
        let tasks = try (1...6).map { try slate.addTask(TaskDraft(title: "Task \($0)")) }
        let start = try await page(dav, "", limit: 100).token
        try slate.deleteTasks([tasks[1].id])
        _ = try slate.updateTask(tasks[2].id, TaskPatch(title: "Task 3, again"))
        try slate.deleteTasks([tasks[3].id])
        _ = try slate.updateTask(tasks[4].id, TaskPatch(title: "Task 5, again"))
        let (pages, _) = try await follow(dav, from: start, limit: 1)
        #expect(pages.flatMap(\.changed) == [href(tasks[2]), href(tasks[4])])
        #expect(pages.flatMap(\.removed).sorted() == [href(tasks[1]), href(tasks[3])].sorted())
    }

    @Test("DAV:nresults 0 could never make progress: refused naming the accepted forms")
    func zeroResults() async throws {
        let dav = try DAVHarness()
        let reply = try await dav.send("REPORT", Self.inbox, body: sync("", limit: 0))
        #expect(reply.status == 400)
        #expect(reply.text.contains("number-of-matches-within-limits") && reply.text.contains("1 or more"))
    }
}

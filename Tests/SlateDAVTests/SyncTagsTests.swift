import Foundation
import SlateCore
import Testing

/// A sync-collection asking for ETags alone is answered from names and revisions
/// (`Slate.calendarChangeTags`); it must list exactly what a sync asking for the objects'
/// data lists: the same hrefs and ETags in the same order, the same removals, pages and
/// tokens, over every kind of object (`AnswerBytesTests.seed`).
@Suite("CalDAV: a sync of ETags alone answers as a sync of the objects")
struct SyncTagsTests {
    static let inbox = AnswerBytesTests.inbox

    /// What one sync page says: each response's href with its ETag (nil for a 404), the token.
    struct Page: Equatable {
        var responses: [String] = []
        var token = ""
    }

    func page(_ dav: DAVHarness, _ token: String, limit: Int?, withData: Bool) async throws -> Page {
        let limitXML = limit.map { "<d:limit><d:nresults>\($0)</d:nresults></d:limit>" } ?? ""
        let prop = withData ? "<d:getetag/><c:calendar-data/>" : "<d:getetag/>"
        let body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><d:sync-collection xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
            + "<d:sync-token>\(token)</d:sync-token><d:sync-level>1</d:sync-level>\(limitXML)<d:prop>\(prop)</d:prop></d:sync-collection>"
        let reply = try await dav.send("REPORT", Self.inbox, body: body)
        #expect(reply.status == 207, "\(reply.text)")
        var page = Page()
        for response in reply.text.components(separatedBy: "<d:response>").dropFirst() {
            let href = response.components(separatedBy: "<d:href>")[1].components(separatedBy: "</d:href>")[0]
            let etag = response.components(separatedBy: "<d:getetag>").dropFirst().first?.components(separatedBy: "</d:getetag>")[0]
            let status = response.contains("</d:href><d:status>") ? response.components(separatedBy: "<d:status>")[1].prefix(12) : "propstat"
            page.responses.append("\(href) \(etag ?? "-") \(status)")
        }
        let start = try #require(reply.text.range(of: "<d:sync-token>"))
        let end = try #require(reply.text.range(of: "</d:sync-token>"))
        page.token = String(reply.text[start.upperBound..<end.lowerBound])
        return page
    }

    /// Every page of a sync from `token` in both forms, checked equal page by page; the last token.
    func compared(_ dav: DAVHarness, from token: String, limit: Int?) async throws -> (pages: [Page], token: String) {
        var token = token
        var pages: [Page] = []
        for _ in 1...30 {
            let tags = try await page(dav, token, limit: limit, withData: false)
            let objects = try await page(dav, token, limit: limit, withData: true)
            #expect(tags == objects)
            pages.append(tags)
            guard tags.responses.contains(where: { $0.hasPrefix(Self.inbox + " ") }) else { return (pages, tags.token) }
            token = tags.token
        }
        Issue.record("the pages never ended")
        return (pages, token)
    }

    @Test("From scratch, whole and in pages of 2, then after changes and removals: the same answers")
    func tagsAnswerAsObjects() async throws {
        let dav = try DAVHarness()
        let (made, _) = try await AnswerBytesTests().seed(dav)
        let (whole, token) = try await compared(dav, from: "", limit: nil)
        #expect(whole.count == 1)
        let listed = try #require(whole.first).responses
        // The series' occurrence is inside series.ics; the other list's object is not here.
        #expect(listed.count == 5, "\(listed)")
        #expect(listed.contains { $0.hasPrefix(Self.inbox + "series.ics &quot;") })
        #expect(!listed.contains { $0.contains("w.ics") })
        let paged = try await compared(dav, from: "", limit: 2)
        #expect(paged.pages.count == 3)
        #expect(paged.pages.flatMap(\.responses).filter { !$0.hasPrefix(Self.inbox + " ") }.sorted() == listed.sorted())

        let slate = dav.slate()
        _ = try slate.updateTask(made, TaskPatch(title: "Renamed in Slate"))
        let a = try #require(try slate.tasks(TaskQuery(status: .all)).first { $0.title == "Kept & <as sent>" })
        try slate.deleteTasks([a.id])
        _ = try slate.addTask(TaskDraft(title: "New since"))
        let (since, _) = try await compared(dav, from: token, limit: nil)
        let changed = try #require(since.first).responses
        #expect(changed.count == 3 + 1, "the renamed, the new and a.ics gone, and c.ics (its parent gone): \(changed)")
        #expect(changed.contains { $0.hasPrefix(Self.inbox + "a.ics - HTTP/1.1 404") })
        _ = try await compared(dav, from: token, limit: 1)
    }
}

import Foundation
import SlateCore
import Testing

/// Deleting, in Slate, a repeating series or one of its completed occurrences that a client
/// keeps as RECURRENCE-ID overrides (Thunderbird, jtx Board): the next sync announces what
/// the client must change, and the bytes it gets say what Slate holds.
@Suite("CalDAV: a series or a completed occurrence deleted in Slate")
struct SeriesDeletionSyncTests {
    let completion = RecurringCompletionTests()
    let reports = ReportTests()
    static let inbox = RecurringCompletionTests.inbox

    /// The href and ETag of each resource a multistatus reports with properties, and the
    /// hrefs it reports gone.
    func parse(_ text: String) -> (present: [String: String], gone: [String]) {
        var present: [String: String] = [:]
        var gone: [String] = []
        for response in text.components(separatedBy: "<d:response>").dropFirst() {
            let href = String(response.components(separatedBy: "<d:href>")[1].prefix { $0 != "<" })
            guard href.hasSuffix(".ics") else { continue }  // the collection's 507 when a limit cut the answer
            if response.contains("404 Not Found</d:status></d:response>") || !response.contains("<d:getetag>") {
                gone.append(href)
            } else {
                present[href] = String(response.components(separatedBy: "<d:getetag>")[1].prefix { $0 != "<" })
                    .replacingOccurrences(of: "&quot;", with: "\"")
            }
        }
        return (present, gone)
    }

    @Test("A series deleted in Slate: the next sync reports it gone and its completed occurrences as new resources, with the ETags a listing gives")
    func seriesDeleted() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("series.ics", completion.thunderbird(completed: ["20261201", "20261208"])).status == 201)
        let token = try reports.token(try await dav.send("REPORT", Self.inbox, body: reports.sync("")).text)
        let plants = try completion.tasks(dav, "Water the plants")
        let series = try #require(plants.first { !$0.isCompleted })
        let done = plants.filter(\.isCompleted).map(\.id)
        #expect(done.count == 2)

        try dav.slate().deleteTasks([series.id])

        let sync = try await dav.send("REPORT", Self.inbox, body: reports.sync(token))
        let (present, gone) = parse(sync.text)
        #expect(gone == [Self.inbox + "series.ics"])
        #expect(Set(present.keys) == Set(done.map { Self.inbox + $0.uuidString + ".ics" }))
        // The same resources and ETags as a listing, and each one readable under its ETag.
        let listing = parse(try await dav.propfind(Self.inbox, depth: "1", ["d:getetag"]).text).present
        for (href, etag) in present {
            #expect(listing[href] == etag)
            let got = try await dav.send(.get, href)
            #expect(got.status == 200 && got.headers["ETag"] == etag && got.text.contains("STATUS:COMPLETED"))
        }
        // Nothing more after that.
        let again = try await dav.send("REPORT", Self.inbox, body: reports.sync(try reports.token(sync.text)))
        #expect(again.text.occurrences(of: "<d:response>") == 0)
    }

    @Test("A series deleted in Slate, synced one change at a time (DAV:limit 1): every occurrence arrives and the sync ends")
    func seriesDeletedInPages() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("series.ics", completion.thunderbird(completed: ["20261201", "20261208"])).status == 201)
        var token = try reports.token(try await dav.send("REPORT", Self.inbox, body: reports.sync("")).text)
        let series = try #require(try completion.tasks(dav, "Water the plants").first { !$0.isCompleted })
        try dav.slate().deleteTasks([series.id])

        var seen: Set<String> = []
        for _ in 0..<6 {
            let page = try await dav.send("REPORT", Self.inbox, body: reports.sync(token, limit: 1))
            let (present, gone) = parse(page.text)
            seen.formUnion(present.keys)
            seen.formUnion(gone)
            token = try reports.token(page.text)
            guard page.status == 207, page.text.contains("507 Insufficient Storage") else { break }
        }
        #expect(seen.count == 3)  // the series gone, two occurrences new
        #expect(try await dav.send("REPORT", Self.inbox, body: reports.sync(token)).text.occurrences(of: "<d:response>") == 0)
    }

    @Test("A completed occurrence deleted in Slate: its override leaves the client's bytes (nothing else changes), the ETag moves and the next sync brings the series")
    func occurrenceDeleted() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("series.ics", completion.thunderbird(completed: ["20261201", "20261208"])).status == 201)
        let before = try await dav.send(.get, Self.inbox + "series.ics")
        let token = try reports.token(try await dav.send("REPORT", Self.inbox, body: reports.sync("")).text)
        let first = try #require(try completion.tasks(dav, "Water the plants").first { $0.isCompleted && completion.day($0.due) == "20261201" })

        try dav.slate().deleteTasks([first.id])

        let after = try await dav.send(.get, Self.inbox + "series.ics")
        #expect(after.text == completion.thunderbird(completed: ["20261208"]))
        #expect(after.headers["ETag"] != before.headers["ETag"])
        let sync = try await dav.send("REPORT", Self.inbox, body: reports.sync(token))
        let (present, gone) = parse(sync.text)
        #expect(present == [Self.inbox + "series.ics": after.headers["ETag"] ?? ""])
        #expect(gone.isEmpty)
        let listing = parse(try await dav.propfind(Self.inbox, depth: "1", ["d:getetag"]).text).present
        #expect(listing == present)

        // A client that had not synced sends its old bytes back, the deleted override in them: it
        // stays deleted, the reply has no ETag (a GET would not return those bytes) and a GET leaves it out.
        let stale = try await dav.put("series.ics", before.text)
        #expect(stale.status == 204 && stale.headers["ETag"] == nil)
        #expect(try await dav.send(.get, Self.inbox + "series.ics").text == after.text)
        #expect(try completion.tasks(dav, "Water the plants").filter(\.isCompleted).count == 1)

        // The client stores what it got back: the deleted occurrence stays deleted, the other is kept.
        let current = try await dav.send(.get, Self.inbox + "series.ics")
        let stored = try await dav.put("series.ics", current.text, headers: ["If-Match": current.headers["ETag"] ?? ""])
        #expect(stored.status == 204 && stored.headers["ETag"] != nil)
        let plants = try completion.tasks(dav, "Water the plants")
        #expect(plants.filter(\.isCompleted).map { completion.day($0.due) } == ["20261208"])
        #expect(plants.filter { !$0.isCompleted }.count == 1)
    }
}

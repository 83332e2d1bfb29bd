import Foundation
@testable import SlateDAV
import SlateCore
import Testing

/// The object responses a server keeps across requests (href, ETag, escaped bytes): a
/// calendar-query or multiget answered again from them is the answer written afresh, and a
/// write to an object, from this process or another, is in the next answer.
@Suite("CalDAV: kept object responses follow writes")
struct KeptResponsesTests {
    static let inbox = "/dav/calendars/ana/inbox/"
    let bytes = AnswerBytesTests()

    func query(_ dav: DAVHarness) async throws -> String {
        let body = ReportTests.header + "<c:calendar-query xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/>"
            + "<c:calendar-data/></d:prop><c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VTODO\"/></c:comp-filter>"
            + "</c:filter></c:calendar-query>"
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: body)
        #expect(reply.status == 207)
        return reply.text
    }

    func multiget(_ dav: DAVHarness, _ names: [String]) async throws -> String {
        let body = ReportTests.header + "<c:calendar-multiget xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/>"
            + "<c:calendar-data/></d:prop>" + names.map { "<d:href>\(Self.inbox)\($0)</d:href>" }.joined() + "</c:calendar-multiget>"
        let reply = try await dav.send("REPORT", Self.inbox, headers: ["Depth": "1"], body: body)
        #expect(reply.status == 207)
        return reply.text
    }

    /// What the answers must be: each object's GET, under its ETag.
    func expected(_ dav: DAVHarness, _ names: [String]) async throws -> String {
        var text = AnswerBytesTests.head
        for name in names {
            let etag = try #require(try await dav.send(.get, Self.inbox + name).headers["ETag"])
            text += try await bytes.dataResponse(dav, Self.inbox + name, etag: try #require(Int(etag.dropFirst().dropLast())))
        }
        return text + AnswerBytesTests.tail
    }

    func seed(_ dav: DAVHarness) async throws -> UUID {
        #expect(try await dav.put("a.ics", DAVHarness.todo(uid: "a", summary: "Stays")).status == 201)
        #expect(try await dav.put("b.ics", DAVHarness.todo(uid: "b", summary: "Changes")).status == 201)
        return try #require(try dav.slate().tasks(TaskQuery(status: .all)).first { $0.title == "Changes" }).id
    }

    @Test("Asked again, a query and a multiget are the same bytes; after a change in Slate, a PUT and a delete in this process, the new ones")
    func writesFromThisProcess() async throws {
        let dav = try DAVHarness()
        let changing = try await seed(dav)
        let first = try await query(dav)
        #expect(first == (try await expected(dav, ["a.ics", "b.ics"])))
        #expect(try await query(dav) == first)
        #expect(try await multiget(dav, ["b.ics", "a.ics"]) == (try await expected(dav, ["b.ics", "a.ics"])))

        _ = try dav.slate().updateTask(changing, TaskPatch(title: "Changed in Slate"))
        let afterEdit = try await query(dav)
        #expect(afterEdit.contains("SUMMARY:Changed in Slate"))
        #expect(!afterEdit.contains("SUMMARY:Changes&#13;"))
        #expect(afterEdit == (try await expected(dav, ["a.ics", "b.ics"])))
        #expect(try await multiget(dav, ["b.ics"]).contains("SUMMARY:Changed in Slate"))

        #expect(try await dav.put("b.ics", DAVHarness.todo(uid: "b", summary: "Sent again")).status == 204)
        let afterPut = try await multiget(dav, ["a.ics", "b.ics"])
        let expectedAfterPut = try await expected(dav, ["a.ics", "b.ics"])
        #expect(afterPut.contains("SUMMARY:Sent again") && afterPut == expectedAfterPut)
        #expect(try await query(dav).contains("SUMMARY:Sent again"))

        #expect(try await dav.send(.delete, Self.inbox + "b.ics").status == 204)
        #expect(try await query(dav) == (try await expected(dav, ["a.ics"])))
    }

    @Test("An answer larger than the size handed over in place is the same bytes, fresh and kept")
    func aLargeAnswer() async throws {
        let dav = try DAVHarness()
        let notes = String(repeating: "Call the lab about the dailies; ", count: 30)
        let names = (0..<100).map { "large-\($0).ics" }
        for (index, name) in names.enumerated() {
            #expect(try await dav.put(name, DAVHarness.todo(uid: "large-\(index)", summary: "Large \(index)",
                                                            extra: ["DESCRIPTION:\(notes)\(index)"])).status == 201)
        }
        let listed = try dav.slate().calendarObjectTags(in: .inbox).map(\.name)
        let expected = try await expected(dav, listed)
        #expect(expected.utf8.count > MultiStatus.sharedBytes)
        let fresh = try await query(dav)
        #expect(fresh == expected)
        #expect(try await query(dav) == expected, "from the kept responses")
    }

    @Test("A change written by another process (another container on the same store) is in the next query and multiget")
    func writesFromAnotherProcess() async throws {
        try await DAVHarness.withSharedStore { path in
            let dav = try DAVHarness(path: path)
            let changing = try await seed(dav)
            let before = try await query(dav)
            #expect(try await multiget(dav, ["b.ics"]).contains("SUMMARY:Changes&#13;"))

            let other = Slate(container: try Slate.openContainer(path: path), accountID: dav.accounts["ana"]!)
            _ = try other.updateTask(changing, TaskPatch(title: "Changed elsewhere"))

            let after = try await query(dav)
            #expect(after != before)
            #expect(after.contains("SUMMARY:Changed elsewhere"))
            #expect(after == (try await expected(dav, ["a.ics", "b.ics"])))
            #expect(try await multiget(dav, ["b.ics"]).contains("SUMMARY:Changed elsewhere"))
        }
    }
}

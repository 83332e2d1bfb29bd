import Foundation
import SlateCore
import SlateHTTP
import SlateServer
import SlateStore
import Testing

/// Revisions are per account: nothing an account is shown (ETags, `revision`, the change
/// feed, `Slate-Change`, event ids) moves with another account's writes.
@Suite struct RevisionIsolationTests {
    /// Ben's writes: a create, an edit, a completion and a delete.
    func bensWrites(_ api: APIHarness) async throws {
        let created = try await api.send(.post, "/api/v1/tasks", as: "b", json: ["title": "Ben's"])
        let id = try #require(created.json["id"] as? String)
        _ = try await api.send(.patch, "/api/v1/tasks/\(id)", as: "b", json: ["title": "Ben's, edited"])
        _ = try await api.send(.post, "/api/v1/tasks", as: "b", json: ["title": "Ben's second"])
        let deleted = try await api.send(.delete, "/api/v1/tasks/\(id)", as: "b")
        #expect(deleted.status < 300)
    }

    @Test func anotherAccountsWritesMoveNoneOfTheNumbersAnAccountSees() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "Ana's"])
        let id = try #require(created.json["id"] as? String)
        let change = try #require(created.headers["Slate-Change"].flatMap { Int($0) })
        let etag = try #require(try await api.send(.get, "/api/v1/tasks/\(id)").headers["ETag"])
        let listRevision = try #require(try await api.send(.get, "/api/v1/tasks").json["revision"] as? Int)
        let feed = try await api.send(.get, "/api/v1/changes?since=0")
        let feedRevision = try #require(feed.json["revision"] as? Int)
        #expect(feedRevision == change && listRevision == change)

        try await bensWrites(api)

        #expect(try await api.send(.get, "/api/v1/tasks/\(id)").headers["ETag"] == etag)
        #expect(try await api.send(.get, "/api/v1/tasks").json["revision"] as? Int == listRevision)
        let quiet = try await api.send(.get, "/api/v1/changes?since=\(feedRevision)")
        #expect(quiet.json["revision"] as? Int == feedRevision)
        #expect((quiet.json["tasks"] as? [Any])?.isEmpty == true && (quiet.json["deletedTaskIds"] as? [Any])?.isEmpty == true)

        // Ana's next write is her next number: no gap where Ben wrote.
        let edited = try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["title": "Ana's, edited"], headers: ["If-Match": etag])
        #expect(edited.status == 200)
        #expect(edited.headers["Slate-Change"] == String(change + 1))
        let next = try await api.send(.get, "/api/v1/changes?since=\(feedRevision)")
        #expect(next.json["revision"] as? Int == change + 1)
        #expect((next.json["tasks"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Ana's, edited"])
        // Undo by change number reverts exactly Ana's change.
        let undo = try await api.send(.post, "/api/v1/undo", json: ["change": change + 1])
        #expect(undo.status == 200)
        #expect(try await api.send(.get, "/api/v1/tasks/\(id)").json["title"] as? String == "Ana's")
    }

    /// Reads stream chunks until `count` events (blank-line separated) arrived.
    func events(_ response: Response, count: Int) async throws -> [String] {
        guard let chunks = response.body.chunks else { throw HTTPError(.internalServerError, code: "x", message: "not a stream") }
        var text = ""
        for await chunk in chunks {
            text += String(decoding: chunk, as: UTF8.self)
            if text.components(separatedBy: "\n\n").count > count { break }
        }
        return Array(text.components(separatedBy: "\n\n").prefix(count))
    }

    @Test func eventIdsCountTheAccountsOwnChangesAndResumeExactly() async throws {
        let api = try APIHarness()
        let first = try await api.send(.post, "/api/v1/tasks", json: ["title": "Ana's first"])
        let revision = try #require(first.headers["Slate-Change"].flatMap { Int($0) })
        try await bensWrites(api)
        // Resuming from Ana's last revision: nothing to catch up on, whatever Ben did.
        let response = try await api.api.router.respond(
            to: Request(method: .get, target: "/api/v1/events", headers: ["X-Account": "a", "Last-Event-ID": String(revision)]))
        let reading = Task { try await events(response, count: 2) }
        // The stream is open once its hello is sent; Ben's writes then are not Ana's events.
        try await bensWrites(api)
        let second = try await api.send(.post, "/api/v1/tasks", json: ["title": "Ana's second"])
        let received = try await reading.value
        #expect(received[0].hasPrefix("id: \(revision)\nevent: hello\n"), "\(received[0])")
        #expect(received[1].hasPrefix("id: \(revision + 1)\nevent: change\ndata: "), "\(received[1])")
        #expect(received[1].contains(second.json["id"] as? String ?? "?"))
    }
}

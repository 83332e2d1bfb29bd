import Foundation
import SlateCore
import SlateHTTP
import SlateServer
import SlateStore
import Testing

@Suite struct EventsTests {
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

    @Test func eachCommitOfTheAccountIsAnEventAndOtherAccountsAreNot() async throws {
        let api = try APIHarness()
        let response = try await api.api.router.respond(to: Request(method: .get, target: "/api/v1/events", headers: ["X-Account": "a"]))
        #expect(response.headers["Content-Type"]?.hasPrefix("text/event-stream") == true)
        guard let chunks = response.body.chunks else { throw HTTPError(.internalServerError, code: "x", message: "not a stream") }
        var stream = chunks.makeAsyncIterator()
        // Reads on until `count` events (blank-line separated) arrived.
        var text = ""
        func receive(_ count: Int) async {
            while text.components(separatedBy: "\n\n").count <= count, let chunk = await stream.next() {
                text += String(decoding: chunk, as: UTF8.self)
            }
        }
        // The hello comes once the stream is subscribed: what is written after it is news.
        await receive(1)
        _ = try await api.send(.post, "/api/v1/tasks", as: "b", json: ["title": "Ben's, not news for Ana"])
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "Ana's"])
        await receive(2)
        let received = Array(text.components(separatedBy: "\n\n").prefix(2))
        // Revisions are Ana's own: none before her task (Ben's is not hers), 1 after it.
        #expect(received[0].hasPrefix("id: 0\nevent: hello\nretry: 2000\n"))
        let change = received[1]
        #expect(change.hasPrefix("id: 1\nevent: change\ndata: "), "\(change)")
        #expect(change.contains(created.json["id"] as? String ?? "?"))
    }

    @Test func aReconnectingClientIsToldWhereToResyncFrom() async throws {
        let api = try APIHarness()
        _ = try await api.send(.post, "/api/v1/tasks", json: ["title": "Missed while away"])
        let response = try await api.api.router.respond(
            to: Request(method: .get, target: "/api/v1/events", headers: ["X-Account": "a", "Last-Event-ID": "0"]))
        let received = try await events(response, count: 2)
        #expect(received[1] == "id: 1\nevent: sync\ndata: {\"revision\":1,\"since\":0}")
    }
}

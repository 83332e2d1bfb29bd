import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import Testing

/// `GET /counts` (and `GET /changes?counts=true`): every sidebar number in one request,
/// equal to what one `GET /tasks` per smart list and `GET /lists` say, for this account only.
@Suite struct CountsTests {
    /// A small board of account `a`, and one task of account `b` that must never be counted.
    func board(_ api: APIHarness) async throws -> String {
        let list = try await api.send(.post, "/api/v1/lists", json: ["name": "Story"]).json["id"] as! String
        let tasks: [[String: Any]] = [
            ["title": "Inbox, flagged", "isFlagged": true],
            ["title": "Due today", "listId": list, "due": "2026-11-29"],
            ["title": "Overdue", "listId": list, "due": "2026-11-20T08:00:00Z"],
            ["title": "Next week", "listId": list, "due": "2026-12-05"],
            ["title": "Done", "listId": list],
        ]
        for task in tasks {
            let reply = try await api.send(.post, "/api/v1/tasks", json: task)
            #expect(reply.status == 201)
            if task["title"] as? String == "Done" {
                let id = reply.json["id"] as! String
                #expect(try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["isCompleted": true]).status == 200)
            }
        }
        #expect(try await api.send(.post, "/api/v1/tasks", as: "b", json: ["title": "Ben's", "isFlagged": true]).status == 201)
        return list
    }

    @Test func countsEqualOnePagePerSmartListAndTheLists() async throws {
        let api = try APIHarness()
        let list = try await board(api)
        let reply = try await api.send(.get, "/api/v1/counts")
        #expect(reply.status == 200)
        let smart = try #require(reply.json["smartLists"] as? [String: Int])
        #expect(smart == ["all": 4, "today": 2, "scheduled": 3, "flagged": 1, "overdue": 1, "inbox": 1, "completed": 1])
        for (name, count) in smart {
            let status = name == "completed" ? "completed" : "active"
            let page = try await api.send(.get, "/api/v1/tasks?scope=\(name)&status=\(status)&limit=1")
            #expect(page.json["total"] as? Int == count, "\(name)")
        }
        #expect(reply.json["lists"] as? [String: Int] == [list: 3])
        #expect(reply.json["revision"] as? Int == (try await api.send(.get, "/api/v1/changes?since=0").json["revision"] as? Int))
    }

    @Test func changesCarryTheCountsWhenAsked() async throws {
        let api = try APIHarness()
        _ = try await board(api)
        let plain = try await api.send(.get, "/api/v1/changes?since=0")
        #expect(plain.status == 200 && plain.json["counts"] == nil)
        let with = try await api.send(.get, "/api/v1/changes?since=0&counts=true")
        #expect(with.status == 200)
        let counts = try #require(with.json["counts"] as? [String: Any])
        #expect(counts["smartLists"] as? [String: Int] == (try await api.send(.get, "/api/v1/counts").json["smartLists"] as? [String: Int]))
        let wrong = try await api.send(.get, "/api/v1/changes?since=0&counts=yes")
        #expect(wrong.status == 400 && wrong.errorField == "counts")
        #expect(wrong.errorMessage == "'counts' must be true or false; got 'yes'.")
    }

    @Test func unknownParametersAndStrangersAreRefused() async throws {
        let api = try APIHarness()
        let reply = try await api.send(.get, "/api/v1/counts?scope=today")
        #expect(reply.status == 400 && reply.errorField == "scope")
        #expect(try await api.send(.get, "/api/v1/counts", as: nil).status == 401)
        let ben = try await api.send(.get, "/api/v1/counts", as: "b")
        #expect((ben.json["smartLists"] as? [String: Int])?["all"] == 0)
    }
}

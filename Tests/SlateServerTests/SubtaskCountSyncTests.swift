import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import Testing

/// A client that follows `GET /changes?since=` keeps every parent's `subtaskCount` right
/// when only a child changes: the parent is part of the child's change.
@Suite struct SubtaskCountSyncTests {
    /// What a sync client holds: each task's count as the last change that named it said.
    struct Mirror {
        var counts: [String: [String: Int]] = [:]
        var since = 0

        mutating func follow(_ api: APIHarness) async throws -> [String] {
            let changes = try await api.send(.get, "/api/v1/changes?since=\(since)")
            #expect(changes.status == 200)
            var named: [String] = []
            for task in changes.json["tasks"] as? [[String: Any]] ?? [] {
                guard let id = task["id"] as? String else { continue }
                counts[id] = task["subtaskCount"] as? [String: Int]
                named.append(id)
            }
            for id in changes.json["deletedTaskIds"] as? [String] ?? [] { counts[id] = nil }
            since = try #require(changes.json["revision"] as? Int)
            return named
        }
    }

    func count(_ api: APIHarness, _ id: String) async throws -> [String: Int]? {
        try await api.send(.get, "/api/v1/tasks/\(id)").json["subtaskCount"] as? [String: Int]
    }

    @Test func aParentsCountFollowsItsSubtasksThroughChanges() async throws {
        let api = try APIHarness()
        let first = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Storyboard"]).json["id"] as? String)
        let second = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Layout"]).json["id"] as? String)
        var mirror = Mirror()
        _ = try await mirror.follow(api)

        func step(_ what: String, expect parents: [String: [String: Int]], _ action: () async throws -> Void) async throws {
            try await action()
            let named = try await mirror.follow(api)
            for (parent, expected) in parents {
                #expect(named.contains(parent), "\(what): the parent is part of the change")
                #expect(try await count(api, parent) == expected, "\(what): the server's count")
                #expect(mirror.counts[parent] == expected, "\(what): the client's count")
            }
        }

        var child = ""
        try await step("a subtask added", expect: [first: ["active": 1, "total": 1]]) {
            let added = try await api.send(.post, "/api/v1/tasks/\(first)/subtasks", json: ["title": "Act 1"])
            #expect(added.status == 201)
            child = try #require(added.json["id"] as? String)
        }
        try await step("a subtask added with parentId", expect: [first: ["active": 2, "total": 2]]) {
            let answer = try await api.send(.post, "/api/v1/tasks", json: ["title": "Act 2", "parentId": first])
            #expect(answer.status == 201)
        }
        try await step("a subtask completed", expect: [first: ["active": 1, "total": 2]]) {
            let answer = try await api.send(.patch, "/api/v1/tasks/\(child)", json: ["isCompleted": true])
            #expect(answer.status == 200)
        }
        try await step("a subtask reopened by the batch action", expect: [first: ["active": 2, "total": 2]]) {
            let reopened = try await api.send(.post, "/api/v1/tasks/batch", json: ["action": "reopen", "ids": [child]])
            #expect(reopened.status == 200)
        }
        try await step("a subtask moved to another parent", expect: [first: ["active": 1, "total": 1], second: ["active": 1, "total": 1]]) {
            let answer = try await api.send(.patch, "/api/v1/tasks/\(child)", json: ["parentId": second])
            #expect(answer.status == 200)
        }
        try await step("the move undone", expect: [first: ["active": 2, "total": 2], second: ["active": 0, "total": 0]]) {
            let answer = try await api.send(.post, "/api/v1/undo", json: [:])
            #expect(answer.status == 200)
        }
        try await step("a subtask deleted", expect: [first: ["active": 1, "total": 1]]) {
            let answer = try await api.send(.delete, "/api/v1/tasks/\(child)")
            #expect(answer.status == 204)
        }
    }

    /// The live event of a subtask's change names its parent, so a live client reads it.
    @Test func theLiveEventOfASubtasksChangeNamesItsParent() async throws {
        let api = try APIHarness()
        let parent = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Storyboard"]).json["id"] as? String)
        let response = try await api.api.router.respond(to: Request(method: .get, target: "/api/v1/events", headers: ["X-Account": "a"]))
        let reading = Task { try await EventsTests().events(response, count: 2) }
        let child = try #require(try await api.send(.post, "/api/v1/tasks/\(parent)/subtasks", json: ["title": "Act 1"]).json["id"] as? String)
        let change = try await reading.value[1]
        #expect(change.contains("event: change") && change.contains(child) && change.contains(parent), "\(change)")
    }
}

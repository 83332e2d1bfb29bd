import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import Testing

/// A parent's ETag moves when its subtasks change (its `subtaskCount` is in the body), but
/// an edit of the parent made with the ETag read before is no conflict: nothing the client
/// saw has changed. A real change of the parent's own fields still answers 412.
@Suite struct SubtaskETagTests {
    func create(_ api: APIHarness, _ json: [String: Any], under parent: String? = nil) async throws -> String {
        let target = parent.map { "/api/v1/tasks/\($0)/subtasks" } ?? "/api/v1/tasks"
        let answer = try await api.send(.post, target, json: json)
        #expect(answer.status == 201)
        return try #require(answer.json["id"] as? String)
    }

    func etag(_ api: APIHarness, _ id: String) async throws -> String {
        try #require(try await api.send(.get, "/api/v1/tasks/\(id)").headers["ETag"])
    }

    @Test func anEditWithTheETagFromBeforeASubtaskChangeIsAccepted() async throws {
        let api = try APIHarness()
        let parent = try await create(api, ["title": "Shoot day 3"])
        let before = try await etag(api, parent)
        let child = try await create(api, ["title": "Call sheet"], under: parent)
        #expect(try await etag(api, parent) != before, "the body's subtaskCount moved, so the ETag does")
        #expect(try await api.send(.patch, "/api/v1/tasks/\(child)", json: ["isCompleted": true]).status == 200)
        _ = try await create(api, ["title": "Catering"], under: parent)

        let edited = try await api.send(.patch, "/api/v1/tasks/\(parent)", json: ["title": "Shoot day 3 (exteriors)"], headers: ["If-Match": before])
        #expect(edited.status == 200)
        #expect(edited.json["title"] as? String == "Shoot day 3 (exteriors)")
        #expect(edited.json["subtaskCount"] as? [String: Int] == ["active": 1, "total": 2], "the touches are kept")

        // Now the parent's own fields changed since `before`: that is a conflict.
        let stale = try await api.send(.patch, "/api/v1/tasks/\(parent)", json: ["notes": "Lost"], headers: ["If-Match": before])
        #expect(stale.status == 412)
        #expect(try await api.send(.delete, "/api/v1/tasks/\(parent)", headers: ["If-Match": before]).status == 412)
        // So is an ETag from after a touch, once the parent itself is edited.
        let afterEdit = try await etag(api, parent)
        _ = try await create(api, ["title": "Generator"], under: parent)
        #expect(try await api.send(.patch, "/api/v1/tasks/\(parent)", json: ["isFlagged": true]).status == 200)
        #expect(try await api.send(.patch, "/api/v1/tasks/\(parent)", json: ["notes": "Mine"], headers: ["If-Match": afterEdit]).status == 412)
    }

    /// Undo puts back an image the parent had, with the touches it recorded then: an ETag
    /// read while the parent had other fields is still refused.
    @Test func anUndoneEditDoesNotMakeAnETagOfTheEditedFieldsAcceptable() async throws {
        let api = try APIHarness()
        let parent = try await create(api, ["title": "Wrap party"])
        let original = try await etag(api, parent)
        _ = try await create(api, ["title": "Venue"], under: parent)
        let renamed = try await api.send(.patch, "/api/v1/tasks/\(parent)", json: ["title": "Wrap dinner"])
        #expect(renamed.status == 200)
        let whileRenamed = try #require(renamed.headers["ETag"])
        #expect(try await api.send(.post, "/api/v1/undo", json: [:]).status == 200)
        #expect(try await api.send(.get, "/api/v1/tasks/\(parent)").json["title"] as? String == "Wrap party")

        let overUndo = try await api.send(.patch, "/api/v1/tasks/\(parent)", json: ["notes": "From the renamed copy"], headers: ["If-Match": whileRenamed])
        #expect(overUndo.status == 412, "that client saw “Wrap dinner”, which the undo took back")
        let fromOriginal = try await api.send(.patch, "/api/v1/tasks/\(parent)", json: ["notes": "Book the hall"], headers: ["If-Match": original])
        #expect(fromOriginal.status == 200, "the fields are again what that client saw")
    }
}

import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import Testing

/// The toast's Undo reverts the change it was shown for, whatever came after it.
@Suite struct UndoChangeTests {
    func change(_ reply: APIHarness.Reply) throws -> Int {
        try #require(reply.headers["Slate-Change"].flatMap { Int($0) }, "a write names its change")
    }

    @Test func undoesTheGivenChangeEvenAfterAnotherDevicesChange() async throws {
        let api = try APIHarness()
        let deleted = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Rig wings"]).json["id"] as? String)
        let other = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Light bedroom"]).json["id"] as? String)

        let deletion = try await api.send(.delete, "/api/v1/tasks/\(deleted)")
        #expect(deletion.status == 204)
        let deletionChange = try change(deletion)
        // Another device changes something else before the toast's Undo is pressed.
        let edit = try await api.send(.patch, "/api/v1/tasks/\(other)", json: ["title": "Light the bedroom"])
        #expect(try change(edit) > deletionChange)

        let undo = try await api.send(.post, "/api/v1/undo", json: ["change": deletionChange])
        #expect(undo.status == 200)
        #expect(undo.json["undone"] as? String == "Delete “Rig wings”")
        #expect(try change(undo) > deletionChange, "the undo is a change too")
        #expect(try await api.send(.get, "/api/v1/tasks/\(deleted)").json["title"] as? String == "Rig wings", "the deleted task is back")
        #expect(try await api.send(.get, "/api/v1/tasks/\(other)").json["title"] as? String == "Light the bedroom", "the other device's edit stays")

        let again = try await api.send(.post, "/api/v1/undo", json: ["change": deletionChange])
        #expect(again.status == 409 && again.errorCode == "cannot_undo", "a change is undone once")
    }

    @Test func refusesWhenALaterChangeTouchedTheSameTask() async throws {
        let api = try APIHarness()
        let id = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Draft"]).json["id"] as? String)
        let first = try change(try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["title": "Draft 2"]))
        _ = try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["isFlagged": true])

        let refused = try await api.send(.post, "/api/v1/undo", json: ["change": first])
        #expect(refused.status == 409 && refused.errorCode == "cannot_undo")
        #expect(refused.errorMessage?.contains("later change") == true)
        let task = try await api.send(.get, "/api/v1/tasks/\(id)")
        #expect(task.json["title"] as? String == "Draft 2" && task.json["isFlagged"] as? Bool == true, "nothing was written")
    }

    @Test func anotherAccountsOrAnUnknownChangeCannotBeUndone() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "Mine"])
        let id = try #require(created.json["id"] as? String)
        let theirs = try await api.send(.post, "/api/v1/undo", as: "b", json: ["change": try change(created)])
        #expect(theirs.status == 409)
        #expect(try await api.send(.get, "/api/v1/tasks/\(id)").status == 200, "b cannot undo a's change")
        #expect(try await api.send(.post, "/api/v1/undo", json: ["change": 999_999]).status == 409)
        let invalid = try await api.send(.post, "/api/v1/undo", json: ["change": "last"])
        #expect(invalid.status == 422 && invalid.errorField == "change")
        #expect(try await api.send(.post, "/api/v1/undo", json: ["change": 0]).status == 422)
    }

    @Test func everyWriteNamesItsChange() async throws {
        let api = try APIHarness()
        let list = try await api.send(.post, "/api/v1/lists", json: ["name": "Sound"])
        let listID = try #require(list.json["id"] as? String)
        let task = try await api.send(.post, "/api/v1/tasks", json: ["title": "Foley", "listId": listID])
        let id = try #require(task.json["id"] as? String)
        var seen = [try change(list), try change(task)]
        seen.append(try change(try await api.send(.post, "/api/v1/tasks/\(id)/subtasks", json: ["title": "Doors"])))
        seen.append(try change(try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["priority": "high"])))
        let batch = try await api.send(.post, "/api/v1/tasks/batch", json: ["action": "complete", "ids": [id]])
        #expect(batch.json["revision"] as? Int == (try change(batch)))
        seen.append(try change(batch))
        seen.append(try change(try await api.send(.post, "/api/v1/tasks/clear-completed", json: [:])))
        seen.append(try change(try await api.send(.patch, "/api/v1/lists/\(listID)", json: ["color": "#FF6B6B"])))
        seen.append(try change(try await api.send(.post, "/api/v1/lists/\(listID)/move", json: ["before": NSNull()])))
        seen.append(try change(try await api.send(.delete, "/api/v1/lists/\(listID)?tasks=keep")))
        #expect(seen == seen.sorted() && Set(seen).count == seen.count, "each write is its own, later change")
        let read = try await api.send(.get, "/api/v1/tasks")
        #expect(read.headers["Slate-Change"] == nil, "a read changes nothing")
    }
}

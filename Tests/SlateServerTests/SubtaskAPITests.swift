import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import Testing

/// `parent=none` and the subtask counts of the task record.
@Suite struct SubtaskAPITests {
    @Test func topLevelTasksAndSubtaskCounts() async throws {
        let api = try APIHarness()
        let parent = try await api.send(.post, "/api/v1/tasks", json: ["title": "Storyboard"])
        let parentID = try #require(parent.json["id"] as? String)
        #expect(parent.json["subtaskCount"] as? [String: Int] == ["active": 0, "total": 0])
        var childIDs: [String] = []
        for title in ["Act 1", "Act 2", "Act 3"] {
            let child = try await api.send(.post, "/api/v1/tasks/\(parentID)/subtasks", json: ["title": title])
            #expect(child.status == 201)
            childIDs.append(try #require(child.json["id"] as? String))
        }
        let grandchild = try await api.send(.post, "/api/v1/tasks/\(childIDs[0])/subtasks", json: ["title": "Opening shot"])
        #expect(grandchild.status == 201)
        #expect(try await api.send(.patch, "/api/v1/tasks/\(childIDs[1])", json: ["isCompleted": true]).status == 200)
        _ = try await api.send(.post, "/api/v1/tasks", json: ["title": "Lone task"])

        let topLevel = try await api.send(.get, "/api/v1/tasks?parent=none&status=all")
        #expect(topLevel.status == 200)
        let tasks = try #require(topLevel.json["tasks"] as? [[String: Any]])
        #expect(Set(tasks.compactMap { $0["title"] as? String }) == ["Storyboard", "Lone task"])
        #expect(topLevel.json["total"] as? Int == 2)
        let counted = try #require(tasks.first { $0["id"] as? String == parentID })
        #expect(counted["subtaskCount"] as? [String: Int] == ["active": 2, "total": 3], "direct subtasks only")

        let shown = try await api.send(.get, "/api/v1/tasks/\(parentID)")
        #expect(shown.json["subtaskCount"] as? [String: Int] == ["active": 2, "total": 3])
        let children = try #require(try await api.send(.get, "/api/v1/tasks/\(parentID)/subtasks").json["tasks"] as? [[String: Any]])
        let first = try #require(children.first { $0["id"] as? String == childIDs[0] })
        #expect(first["subtaskCount"] as? [String: Int] == ["active": 1, "total": 1])

        let page = try await api.send(.get, "/api/v1/tasks?parent=\(parentID)&status=all")
        #expect(page.json["total"] as? Int == 3)
        let bad = try await api.send(.get, "/api/v1/tasks?parent=nobody")
        #expect(bad.status == 400 && bad.errorField == "parent" && bad.errorMessage?.contains("none") == true)
    }
}

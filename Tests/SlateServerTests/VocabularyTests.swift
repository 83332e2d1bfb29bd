import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import Testing

/// `GET /vocabulary` is what the server accepts, from SlateCore's own declarations.
@Suite struct VocabularyTests {
    @Test func everyNameItOffersIsAcceptedAndNothingElseIs() async throws {
        let api = try APIHarness()
        let reply = try await api.send(.get, "/api/v1/vocabulary")
        #expect(reply.status == 200)
        let json = reply.json
        let smart = try #require(json["smartLists"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(smart == SmartList.all.map(\.name))
        for name in smart {
            #expect(try await api.send(.get, "/api/v1/tasks?scope=\(name)").status == 200, "\(name)")
        }
        let sorts = try #require(json["sorts"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(sorts == TaskQuery.Sort.allCases.map(\.rawValue))
        for name in sorts {
            #expect(try await api.send(.get, "/api/v1/tasks?sort=\(name)").status == 200, "\(name)")
        }
        let priorities = try #require(json["priorities"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(priorities == ["critical", "high", "medium", "low", "none"])
        for name in priorities {
            #expect(try await api.send(.post, "/api/v1/tasks", json: ["title": "x", "priority": name]).status == 201, "\(name)")
        }
        #expect(try await api.send(.get, "/api/v1/tasks?scope=someday").status == 400)
        #expect(try await api.send(.get, "/api/v1/tasks?sort=random").status == 400)

        let palette = try #require(json["palette"] as? [String])
        #expect(palette == TaskList.palette && palette.contains(json["defaultColor"] as? String ?? ""))
        let icons = try #require(json["icons"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(icons == TaskList.icons.map(\.name) && icons.first == json["defaultIcon"] as? String)
        for (color, icon) in zip(palette, icons) {
            let list = try await api.send(.post, "/api/v1/lists", json: ["name": "L \(color)", "color": color, "icon": icon])
            #expect(list.status == 201, "\(color) \(icon)")
        }
        let limits = try #require(json["limits"] as? [String: Int])
        let title = try #require(limits["title"])
        #expect(try await api.send(.post, "/api/v1/tasks", json: ["title": String(repeating: "a", count: title)]).status == 201)
        #expect(try await api.send(.post, "/api/v1/tasks", json: ["title": String(repeating: "a", count: title + 1)]).status == 422)
        let page = try #require(limits["pageSize"])
        #expect(try await api.send(.get, "/api/v1/tasks?limit=\(page)").status == 200)
        #expect(try await api.send(.get, "/api/v1/tasks?limit=\(page + 1)").status == 400)
    }

    @Test func itNeedsASignedInClient() async throws {
        let api = try APIHarness()
        #expect(try await api.send(.get, "/api/v1/vocabulary", as: nil).status == 401)
    }
}

import Foundation
import SlateHTTP
import Testing

/// `GET /tasks?counts=active`: the page carries `activeTotal`, how many of the tasks its
/// query matches are not completed — this account's only, whatever the page's size, order
/// or place — so the web app's Active heading needs no second request.
@Suite struct ActiveTotalTests {
    /// Account `a`: five "storyboard" tasks (two completed) and four others (one completed);
    /// account `b`: two active "storyboard" tasks that must never be counted for `a`.
    func board(_ api: APIHarness) async throws -> [String] {
        var storyboard: [String] = []
        let titles = ["Storyboard one", "Storyboard two", "Storyboard three", "Storyboard four", "Storyboard five",
                      "Shopping", "Laundry", "Taxes", "Old chore"]
        for title in titles {
            let reply = try await api.send(.post, "/api/v1/tasks", json: ["title": title])
            #expect(reply.status == 201)
            let id = try #require(reply.json["id"] as? String)
            if title.hasPrefix("Storyboard") { storyboard.append(id) }
            if ["Storyboard four", "Storyboard five", "Old chore"].contains(title) {
                #expect(try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["isCompleted": true]).status == 200)
            }
        }
        for title in ["Ben's storyboard", "Ben's other storyboard"] {
            #expect(try await api.send(.post, "/api/v1/tasks", as: "b", json: ["title": title]).status == 201)
        }
        return storyboard
    }

    func page(_ api: APIHarness, _ query: String, as account: String = "a") async throws -> (total: Int?, active: Int?) {
        let reply = try await api.send(.get, "/api/v1/tasks?\(query)", as: account)
        #expect(reply.status == 200, "\(query): \(reply.errorMessage ?? "")")
        return (reply.json["total"] as? Int, reply.json["activeTotal"] as? Int)
    }

    @Test func countsOnlyTheActiveTasksOfTheQueryAndTheAccount() async throws {
        let api = try APIHarness()
        _ = try await board(api)
        // Every page size: a page of active tasks only (counted), one that reaches the
        // completed ones (read from the page), the whole result (read from the page).
        for limit in 1...10 {
            let search = try await page(api, "status=all&search=storyboard&limit=\(limit)&counts=active")
            #expect(search.total == 5 && search.active == 3, "search, limit \(limit)")
            let everything = try await page(api, "status=all&limit=\(limit)&counts=active")
            #expect(everything.total == 9 && everything.active == 6, "no search, limit \(limit)")
            let byTitle = try await page(api, "status=all&search=storyboard&sort=title&limit=\(limit)&counts=active")
            #expect(byTitle.total == 5 && byTitle.active == 3, "by title, limit \(limit)")
        }
        let first = try await api.send(.get, "/api/v1/tasks?status=all&search=storyboard&limit=2&counts=active")
        let cursor = try #require(first.json["nextCursor"] as? String)
        #expect(try await page(api, "status=all&search=storyboard&limit=2&cursor=\(cursor)&counts=active").active == 3)
        #expect(try await page(api, "status=active&search=storyboard&limit=1&counts=active").active == 3)
        #expect(try await page(api, "status=completed&search=storyboard&limit=1&counts=active").active == 0)
        #expect(try await page(api, "scope=completed&limit=1&counts=active").active == 0)
        let ben = try await page(api, "status=all&search=storyboard&limit=1&counts=active", as: "b")
        #expect(ben.total == 2 && ben.active == 2)
    }

    @Test func itIsAbsentUnlessAskedAndFollowsEveryChange() async throws {
        let api = try APIHarness()
        let storyboard = try await board(api)
        let plain = try await api.send(.get, "/api/v1/tasks?status=all&search=storyboard&limit=2")
        #expect(plain.status == 200 && plain.json["total"] as? Int == 5 && plain.json["activeTotal"] == nil)
        let query = "status=all&search=storyboard&limit=2&counts=active"
        #expect(try await page(api, query).active == 3)
        #expect(try await api.send(.patch, "/api/v1/tasks/\(storyboard[0])", json: ["isCompleted": true]).status == 200)
        #expect(try await page(api, query).active == 2)
        #expect(try await api.send(.delete, "/api/v1/tasks/\(storyboard[1])").status == 204)
        let after = try await page(api, query)
        #expect(after.total == 4 && after.active == 1)
    }

    @Test(arguments: ["yes", "true", "Active", "active,completed", ""])
    func aBadValueIsA400NamingCountsAndItsForm(_ value: String) async throws {
        let api = try APIHarness()
        _ = try await board(api)
        let reply = try await api.send(.get, "/api/v1/tasks?status=all&counts=\(value)")
        #expect(reply.status == 400)
        #expect(reply.errorField == "counts")
        #expect(reply.errorMessage == "'counts' must be active (the page then carries activeTotal); got '\(value)'.")
    }
}

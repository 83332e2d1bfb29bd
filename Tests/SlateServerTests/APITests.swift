import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import Testing

@Suite struct TaskAPITests {
    @Test func createReadUpdateDeleteWithETags() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "  Lock budget ", "due": "2026-12-24", "tags": ["Money"]])
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? String)
        #expect(created.json["title"] as? String == "Lock budget")
        #expect(created.json["priority"] as? String == "medium")
        #expect(created.json["due"] as? String == "2026-12-24" && created.json["isAllDay"] as? Bool == true)
        #expect(created.headers["Location"] == "/api/v1/tasks/\(id)")
        let etag = try #require(created.headers["ETag"])

        let read = try await api.send(.get, "/api/v1/tasks/\(id)")
        #expect(read.status == 200 && read.headers["ETag"] == etag)

        let updated = try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["isCompleted": true, "due": nil], headers: ["If-Match": etag])
        #expect(updated.status == 200)
        #expect(updated.json["isCompleted"] as? Bool == true && updated.json["due"] is NSNull)
        #expect(updated.headers["ETag"] != etag)

        let stale = try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["title": "Mine"], headers: ["If-Match": etag])
        #expect(stale.status == 412 && stale.errorCode == "stale")
        let current = try #require((stale.json["error"] as? [String: Any])?["current"] as? [String: Any])
        #expect(current["title"] as? String == "Lock budget", "the 412 carries the current version")
        #expect(stale.headers["ETag"] == updated.headers["ETag"])

        #expect(try await api.send(.delete, "/api/v1/tasks/\(id)", headers: ["If-Match": etag]).status == 412)
        #expect(try await api.send(.delete, "/api/v1/tasks/\(id)", headers: ["If-Match": updated.headers["ETag"]!]).status == 204)
        #expect(try await api.send(.get, "/api/v1/tasks/\(id)").status == 404)
    }

    @Test func badInputIsA4xxNamingTheFieldAndWritesNothing() async throws {
        let api = try APIHarness()
        let cases: [(Any?, String?, Int, String?)] = [
            (nil, "{not json", 400, "body"),
            (nil, "[1, 2]", 400, "body"),
            (["title": "x", "colour": "red"], nil, 422, "colour"),
            (["title": 5], nil, 422, "title"),
            (["title": "   "], nil, 422, "title"),
            (["notes": "no title"], nil, 422, "title"),
            (["title": "x", "priority": "urgent"], nil, 422, "priority"),
            (["title": "x", "due": "2026-02-30"], nil, 422, "due"),
            (["title": "x", "isFlagged": 1], nil, 422, "isFlagged"),
            (["title": "x", "tags": "a,b"], nil, 422, "tags"),
            (["title": "x", "listId": "not-a-uuid"], nil, 422, "listId"),
            (["title": "x", "listId": UUID().uuidString], nil, 404, "listId"),
            (["title": "x", "parentId": UUID().uuidString], nil, 404, "parentId"),
            (["title": String(repeating: "a", count: 501)], nil, 422, "title"),
            (["title": "x", "recurrence": "every blue moon"], nil, 422, "recurrence"),
            (["title": "x", "due": "0000-01-01"], nil, 422, "due"),
            (["title": "x", "due": "2026-12-01T10:00:60Z"], nil, 422, "due"),
            (["title": "x", "due": "2026-12-01T10:00:00+99:99"], nil, 422, "due"),
            (nil, #"{"title":"x","priority":"low","title":"y"}"#, 400, "title"),
            (["title": "x\u{0}y"], nil, 422, "title"),
        ]
        for (json, raw, status, field) in cases {
            let reply = try await api.send(.post, "/api/v1/tasks", json: json, raw: raw)
            let input = raw ?? String(describing: json)
            #expect(reply.status == status, "\(input)")
            #expect(reply.errorField == field, "\(input): \(reply.errorMessage ?? "")")
            #expect(reply.headers["Content-Type"] == "application/json")
        }
        let listed = try await api.send(.get, "/api/v1/tasks")
        #expect(listed.json["total"] as? Int == 0)
        #expect(try await api.send(.get, "/api/v1/tasks?sort=size").errorField == "sort")
        #expect(try await api.send(.get, "/api/v1/tasks?limit=0").errorField == "limit")
        let twice = try await api.send(.get, "/api/v1/tasks?limit=3&limit=4")
        #expect(twice.status == 400 && twice.errorField == "limit" && twice.errorMessage == "'limit' is given twice; give each parameter once.")
        #expect(try await api.send(.get, "/api/v1/tasks?colour=red").errorField == "colour")
    }

    @Test func aBodyInAnotherMediaTypeIsA415NamingContentType() async throws {
        let api = try APIHarness()
        let reply = try await api.send(.post, "/api/v1/tasks", raw: "title=x", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(reply.status == 415)
        #expect(reply.errorCode == "unsupported_media_type")
        #expect(reply.errorField == "Content-Type")
        #expect(try await api.send(.get, "/api/v1/tasks").json["total"] as? Int == 0)
    }

    @Test func aCommaAfterTheLastMemberIsMalformedJSONAndWritesNothing() async throws {
        let api = try APIHarness()
        for body in [#"{"title":"x",}"#, #"{"title":"x","tags":["a",]}"#, "{\"title\":\"x\",\n  }"] {
            let reply = try await api.send(.post, "/api/v1/tasks", raw: body, headers: ["Content-Type": "application/json"])
            #expect(reply.status == 400 && reply.errorCode == "malformed_json" && reply.errorField == "body", "\(body)")
        }
        // A comma inside a string is text.
        let fine = try await api.send(.post, "/api/v1/tasks", raw: #"{"title":"x,}", "notes":",]"}"#, headers: ["Content-Type": "application/json"])
        #expect(fine.status == 201 && fine.json["title"] as? String == "x,}")
        #expect(try await api.send(.get, "/api/v1/tasks").json["total"] as? Int == 1)
    }

    @Test func batchDeleteOfATaskWithItsSubtaskAndARepeatedIdDeletesThemAll() async throws {
        let api = try APIHarness()
        let parent = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Parent"]).json["id"] as? String)
        let child = try #require(try await api.send(.post, "/api/v1/tasks/\(parent)/subtasks", json: ["title": "Child"]).json["id"] as? String)
        let other = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Other"]).json["id"] as? String)
        // The subtask first, the parent twice: each task once, the subtask with its parent.
        let reply = try await api.send(.post, "/api/v1/tasks/batch", json: ["action": "delete", "ids": [child, parent, parent]])
        #expect(reply.status == 200, "\(reply.errorMessage ?? "")")
        #expect(reply.json["ids"] as? [String] == [child, parent])
        #expect(try await api.send(.get, "/api/v1/tasks/\(parent)").status == 404)
        #expect(try await api.send(.get, "/api/v1/tasks/\(child)").status == 404)
        #expect(try await api.send(.get, "/api/v1/tasks/\(other)").status == 200)
        let completed = try await api.send(.post, "/api/v1/tasks/batch", json: ["action": "complete", "ids": [other, other]])
        #expect(completed.status == 200, "\(completed.errorMessage ?? "")")
    }

    /// A stale If-Match on a list, for a change or a deletion, is a 412 with the list as it is now.
    @Test func aStaleListETagIsA412WithTheCurrentList() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/lists", json: ["name": "Story"])
        let list = try #require(created.json["id"] as? String)
        let etag = try #require(created.headers["ETag"])
        #expect(try await api.send(.patch, "/api/v1/lists/\(list)", json: ["name": "Script"]).status == 200)
        for (method, target, body) in [(HTTPMethod.patch, "/api/v1/lists/\(list)", ["name": "Mine"] as [String: Any]?),
                                       (.delete, "/api/v1/lists/\(list)?tasks=keep", nil)] {
            let stale = try await api.send(method, target, json: body, headers: ["If-Match": etag])
            #expect(stale.status == 412, "\(method)")
            let current = (stale.json["error"] as? [String: Any])?["current"] as? [String: Any]
            #expect(current?["name"] as? String == "Script", "\(method)")
        }
    }

    /// An unknown field's error lists what a request may send: a new task cannot be completed,
    /// and reminderOffset is read only to say what replaced it.
    @Test func anUnknownFieldsErrorListsOnlyWhatIsAccepted() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "T", "colour": "red"])
        #expect(created.errorCode == "unknown_field")
        let message = try #require(created.errorMessage)
        #expect(message.contains("title") && !message.contains("isCompleted") && !message.contains("reminderOffset"))
        let id = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "T"]).json["id"] as? String)
        let changed = try #require(try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["colour": "red"]).errorMessage)
        #expect(changed.contains("isCompleted") && !changed.contains("reminderOffset"))
    }

    /// List names are remembered between requests: a rename or a deletion shows at once.
    @Test func aTaskNamesItsListAsItIsNow() async throws {
        let api = try APIHarness()
        let list = try #require(try await api.send(.post, "/api/v1/lists", json: ["name": "Before"]).json["id"] as? String)
        let task = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "T", "listId": list]).json["id"] as? String)
        #expect(try await api.send(.get, "/api/v1/tasks/\(task)").json["list"] as? String == "Before")
        #expect(try await api.send(.patch, "/api/v1/lists/\(list)", json: ["name": "After"]).status == 200)
        #expect(try await api.send(.get, "/api/v1/tasks/\(task)").json["list"] as? String == "After")
        let page = try await api.send(.get, "/api/v1/tasks?list=\(list)").json["tasks"] as? [[String: Any]]
        #expect(page?.first?["list"] as? String == "After")
        #expect(try await api.send(.delete, "/api/v1/lists/\(list)?tasks=keep").status == 204)
        let shown = try await api.send(.get, "/api/v1/tasks/\(task)").json
        #expect(shown["list"] is NSNull && shown["listId"] is NSNull)
    }

    /// PATCHes without If-Match that race on one task all apply: a write landing between a
    /// PATCH's read and its save is not the client's conflict (it answered 412 before).
    @Test func concurrentPatchesWithoutIfMatchAllApply() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try Slate.openContainer(path: folder.appendingPathComponent("slate.sqlite").path)
        let account = try Slate.ensureAccount(named: "ana", in: container, now: APIHarness.now).id
        let api = SlateAPI(container: container, authenticate: { _ in account }, clock: { APIHarness.now })
        func send(_ method: HTTPMethod, _ target: String, _ json: [String: Any]) async throws -> Response {
            var headers = HTTPHeaders()
            headers["Content-Type"] = "application/json"
            return try await api.router.respond(
                to: Request(method: method, target: target, headers: headers, body: try JSONSerialization.data(withJSONObject: json)))
        }
        let created = try await send(.post, "/api/v1/tasks", ["title": "Contended"])
        let id = try #require((try JSONSerialization.jsonObject(with: created.bodyData ?? Data()) as? [String: Any])?["id"] as? String)
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var statuses: [Int] = []
                    for round in 0..<10 {
                        let response = try await send(.patch, "/api/v1/tasks/\(id)", ["isFlagged": (worker + round) % 2 == 0])
                        statuses.append(response.status.code)
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == 40)
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses.filter { $0 != 200 })")
    }

    /// Page totals are remembered between requests: every change to the tasks shows at once.
    @Test func aPageTotalFollowsEveryChange() async throws {
        let api = try APIHarness()
        func total(_ query: String) async throws -> Int? {
            try await api.send(.get, "/api/v1/tasks?\(query)").json["total"] as? Int
        }
        let first = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "One"]).json["id"] as? String)
        #expect(try await total("status=active&limit=1") == 1)
        #expect(try await total("status=active&limit=1") == 1)
        _ = try await api.send(.post, "/api/v1/tasks", json: ["title": "Two"])
        #expect(try await total("status=active&limit=1") == 2)
        #expect(try await api.send(.patch, "/api/v1/tasks/\(first)", json: ["isCompleted": true]).status == 200)
        #expect(try await total("status=active&limit=1") == 1)
        #expect(try await total("status=completed") == 1)
                #expect(try await api.send(.delete, "/api/v1/tasks/\(first)").status == 204)
        #expect(try await total("status=completed") == 0)
        #expect(try await api.send(.get, "/api/v1/tasks?limit=1", as: "b").json["total"] as? Int == 0, "another account's count")
    }

    @Test func anUnknownIdInTheBodyOrQueryIsA404NamingIt() async throws {
        let api = try APIHarness()
        let task = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "T"]).json["id"] as? String)
        let list = try #require(try await api.send(.post, "/api/v1/lists", json: ["name": "L"]).json["id"] as? String)
        let nobody = UUID().uuidString.lowercased()
        let cases: [(HTTPMethod, String, [String: Any]?, String)] = [
            (.patch, "/api/v1/tasks/\(task)", ["listId": nobody], "listId"),
            (.patch, "/api/v1/tasks/\(task)", ["parentId": nobody], "parentId"),
            (.post, "/api/v1/tasks/batch", ["action": "move", "ids": [task], "before": nobody], "before"),
            (.post, "/api/v1/lists/\(list)/move", ["before": nobody], "before"),
            (.post, "/api/v1/tasks/clear-completed", ["listId": nobody], "listId"),
            (.get, "/api/v1/tasks?list=\(nobody)", nil, "list"),
        ]
        for (method, target, json, field) in cases {
            let reply = try await api.send(method, target, json: json)
            #expect(reply.status == 404, "\(method) \(target)")
            #expect(reply.errorField == field, "\(method) \(target): \(reply.errorMessage ?? "")")
        }
        let selfTask = try await api.send(.post, "/api/v1/tasks/batch", json: ["action": "move", "ids": [task], "before": task])
        #expect(selfTask.status == 422 && selfTask.errorField == "before")
        let selfList = try await api.send(.post, "/api/v1/lists/\(list)/move", json: ["before": list])
        #expect(selfList.status == 422 && selfList.errorField == "before")
        // The resource in the path itself is a plain 404.
        #expect(try await api.send(.post, "/api/v1/lists/\(nobody)/move", json: ["before": list]).errorField == nil)
    }

    @Test func aSubtaskCycleIsA422NamingParentId() async throws {
        let api = try APIHarness()
        let parent = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Parent"]).json["id"] as? String)
        let child = try #require(try await api.send(.post, "/api/v1/tasks/\(parent)/subtasks", json: ["title": "Child"]).json["id"] as? String)
        for target in [parent, child] {
            let reply = try await api.send(.patch, "/api/v1/tasks/\(parent)", json: ["parentId": target])
            #expect(reply.status == 422)
            #expect(reply.errorField == "parentId")
        }
    }

    @Test func subtasksDeeperThanTheLimitAreA422NamingParentId() async throws {
        let api = try APIHarness()
        var chain = [try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Level 1"]).json["id"] as? String)]
        for level in 2...TaskRules.maximumSubtaskDepth {
            let reply = try await api.send(.post, "/api/v1/tasks/\(chain.last!)/subtasks", json: ["title": "Level \(level)"])
            chain.append(try #require(reply.json["id"] as? String))
        }
        let tooDeep = try await api.send(.post, "/api/v1/tasks/\(chain.last!)/subtasks", json: ["title": "Level 17"])
        #expect(tooDeep.status == 422 && tooDeep.errorField == "parentId")
        #expect(tooDeep.errorMessage?.contains("at most 16 levels deep") == true)
        let viaCreate = try await api.send(.post, "/api/v1/tasks", json: ["title": "Level 17", "parentId": chain.last!])
        #expect(viaCreate.status == 422 && viaCreate.errorField == "parentId")
        let other = try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": "Other"]).json["id"] as? String)
        let moved = try await api.send(.patch, "/api/v1/tasks/\(other)", json: ["parentId": chain.last!])
        #expect(moved.status == 422 && moved.errorField == "parentId")
        // The whole chain still deletes from its root.
        #expect(try await api.send(.delete, "/api/v1/tasks/\(chain[0])").status == 204)
        #expect(try await api.send(.get, "/api/v1/tasks/\(chain.last!)").status == 404)
    }

    @Test func aMethodAPathLacksIsA405EvenWhereAnIdRouteWouldMatch() async throws {
        let api = try APIHarness()
        // PATCH and DELETE exist on /tasks/{id}, but /tasks/batch is not a task.
        for (method, path) in [(HTTPMethod.patch, "/api/v1/tasks/batch"), (.delete, "/api/v1/tasks/parse"), (.get, "/api/v1/tasks/clear-completed")] {
            let reply = try await api.send(method, path, json: [:])
            #expect(reply.status == 405, "\(method) \(path)")
            #expect(reply.headers["Allow"] == "POST", "\(method) \(path)")
        }
    }

    @Test func listingFiltersSortsAndPagesWithACursor() async throws {
        let api = try APIHarness()
        for index in 1...7 {
            _ = try await api.send(.post, "/api/v1/tasks", json: ["title": "Task \(index)", "priority": index == 4 ? "critical" : "low"])
        }
        let first = try await api.send(.get, "/api/v1/tasks?limit=3")
        let tasks = try #require(first.json["tasks"] as? [[String: Any]])
        #expect(tasks.compactMap { $0["title"] as? String } == ["Task 4", "Task 1", "Task 2"])
        #expect(first.json["total"] as? Int == 7)
        let cursor = try #require(first.json["nextCursor"] as? String)
        let second = try await api.send(.get, "/api/v1/tasks?limit=3&cursor=\(cursor)")
        #expect((second.json["tasks"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Task 3", "Task 5", "Task 6"])
        let critical = try await api.send(.get, "/api/v1/tasks?priority=critical&search=task")
        #expect(critical.json["total"] as? Int == 1)
    }

    @Test(arguments: [0, 1, 3, 50, 62, 999, 123_456_789])
    func cursorsAreURLSafeAndComeBackAsTheirOffset(offset: Int) throws {
        let cursor = Cursor.encode(offset: offset)
        #expect(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(Cursor.decode(cursor) == offset)
        // A cursor handed out before they were base64url (standard, padded) still works.
        #expect(Cursor.decode(Data("o:\(offset)".utf8).base64EncodedString()) == offset)
    }

    @Test func aCursorThatWasNotHandedOutIsRefusedByName() async throws {
        let api = try APIHarness()
        for text in ["bm9wZQ", "o:5", "%%%", "bzotMQ", String(repeating: "A", count: 100)] {
            #expect(Cursor.decode(text) == nil)
            let reply = try await api.send(.get, "/api/v1/tasks?cursor=\(text)")
            #expect(reply.status == 400)
            #expect(reply.errorField == "cursor")
        }
    }

    @Test func quickEntryIsParsedWithoutSaving() async throws {
        let api = try APIHarness()
        let reply = try await api.send(.post, "/api/v1/tasks/parse", json: ["text": "Storyboard the inciting incident tomorrow 5pm !high #Story"])
        #expect(reply.status == 200)
        #expect(reply.json["title"] as? String == "Storyboard the inciting incident")
        #expect(reply.json["due"] as? String == "2026-11-30T16:00:00.000Z")
        #expect(reply.json["priority"] as? String == "high" && reply.json["list"] as? String == "Story")
        #expect((reply.json["understood"] as? [[String: Any]])?.count == 3)
        #expect(try await api.send(.get, "/api/v1/tasks").json["total"] as? Int == 0)
    }

    @Test func batchesUndoAndChangesSinceARevision() async throws {
        let api = try APIHarness()
        var ids: [String] = []
        for title in ["A", "B", "C"] {
            ids.append(try #require(try await api.send(.post, "/api/v1/tasks", json: ["title": title]).json["id"] as? String))
        }
        let revision = try #require(try await api.send(.get, "/api/v1/tasks").json["revision"] as? Int)
        let batch = try await api.send(.post, "/api/v1/tasks/batch", json: ["action": "complete", "ids": [ids[0], ids[1]]])
        #expect(batch.status == 200)
        let changes = try await api.send(.get, "/api/v1/changes?since=\(revision)")
        #expect(Set((changes.json["tasks"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []) == [ids[0], ids[1]])
        #expect(try await api.send(.post, "/api/v1/tasks/clear-completed", json: [:]).json["deleted"] as? Int == 2)
        // A revision the board has not reached (a client of a board since restored): resync.
        let ahead = try await api.send(.get, "/api/v1/changes?since=\(revision + 1000)")
        #expect(ahead.status == 409 && ahead.errorField == "since")
        #expect((ahead.json["error"] as? [String: Any])?["code"] as? String == "resync_required")
        let afterClear = try await api.send(.get, "/api/v1/changes?since=\(revision)")
        #expect(Set(afterClear.json["deletedTaskIds"] as? [String] ?? []) == [ids[0], ids[1]])
        #expect(try await api.send(.post, "/api/v1/undo").json["undone"] as? String == "Clear 2 completed")
        #expect(try await api.send(.get, "/api/v1/tasks?status=all").json["total"] as? Int == 3)
        #expect(try await api.send(.post, "/api/v1/tasks/batch", json: ["action": "explode", "ids": [ids[2]]]).errorField == "action")
    }

    @Test func unknownRoutesAndMethodsAnswerInTheErrorShape() async throws {
        let api = try APIHarness()
        let missing = try await api.send(.get, "/api/v1/nothing")
        #expect(missing.status == 404 && missing.errorCode == "not_found")
        let method = try await api.send(.put, "/api/v1/tasks")
        #expect(method.status == 405 && method.headers["Allow"] == "GET, POST")
        #expect(try await api.send(.get, "/api/v1/tasks/not-an-id").status == 404)
    }
}

@Suite struct AccountScopeTests {
    @Test func oneAccountCanNeitherReadNorChangeNorSeeAnothersData() async throws {
        let api = try APIHarness()
        let list = try await api.send(.post, "/api/v1/lists", json: ["name": "Private", "color": "#FF6B6B"])
        let listID = try #require(list.json["id"] as? String)
        let task = try await api.send(.post, "/api/v1/tasks", json: ["title": "Secret", "listId": listID])
        let taskID = try #require(task.json["id"] as? String)

        #expect(try await api.send(.get, "/api/v1/tasks/\(taskID)", as: "b").status == 404)
        #expect(try await api.send(.patch, "/api/v1/tasks/\(taskID)", as: "b", json: ["title": "Mine"]).status == 404)
        #expect(try await api.send(.delete, "/api/v1/tasks/\(taskID)", as: "b").status == 404)
        #expect(try await api.send(.get, "/api/v1/lists/\(listID)", as: "b").status == 404)
        #expect(try await api.send(.patch, "/api/v1/lists/\(listID)", as: "b", json: ["name": "x"]).status == 404)
        #expect(try await api.send(.delete, "/api/v1/lists/\(listID)?tasks=delete", as: "b").status == 404)
        #expect(try await api.send(.get, "/api/v1/tasks?list=\(listID)", as: "b").status == 404)
        let subtasks = try await api.send(.get, "/api/v1/tasks?parent=\(taskID)", as: "b")
        #expect(subtasks.status == 404 && subtasks.errorField == "parent")
        #expect(try await api.send(.get, "/api/v1/tasks?parent=\(taskID)").status == 200)
        #expect(try await api.send(.post, "/api/v1/tasks", as: "b", json: ["title": "x", "listId": listID]).status == 404)
        #expect(try await api.send(.post, "/api/v1/tasks/batch", as: "b", json: ["action": "delete", "ids": [taskID]]).status == 404)
        #expect(try await api.send(.get, "/api/v1/tasks", as: "b").json["total"] as? Int == 0)
        let theirLists = try await api.send(.get, "/api/v1/lists", as: "b")
        #expect((theirLists.json["lists"] as? [Any])?.isEmpty == true)
        #expect((try await api.send(.get, "/api/v1/changes?since=0", as: "b").json["tasks"] as? [Any])?.isEmpty == true)
        let doomed = try await api.send(.post, "/api/v1/tasks", json: ["title": "Doomed"])
        _ = try await api.send(.delete, "/api/v1/tasks/\(doomed.json["id"] as? String ?? "")")
        let theirChanges = try await api.send(.get, "/api/v1/changes?since=0", as: "b")
        #expect((theirChanges.json["deletedTaskIds"] as? [Any])?.isEmpty == true, "another account's deletions stay private")
        let ourChanges = try await api.send(.get, "/api/v1/changes?since=0")
        #expect(ourChanges.json["deletedTaskIds"] as? [String] == [doomed.json["id"] as? String ?? ""])
        #expect(try await api.send(.get, "/api/v1/stats", as: "b").json["total"] as? Int == 0)
        // The same name is free in another account.
        #expect(try await api.send(.post, "/api/v1/lists", as: "b", json: ["name": "Private"]).status == 201)
        #expect(try await api.send(.get, "/api/v1/tasks/\(taskID)").json["title"] as? String == "Secret", "untouched")
        #expect(try await api.send(.get, "/api/v1/tasks", as: nil).status == 401)
        #expect(try await api.send(.post, "/api/v1/undo", as: "b").json["undone"] as? String == "Add list “Private”",
                "b undoes its own list, not a's delete")
        #expect(try await api.send(.post, "/api/v1/undo", as: "b").json["undone"] is NSNull)
        #expect(try await api.send(.get, "/api/v1/tasks/\(taskID)").status == 200)
    }
}

@Suite struct OpenAPITests {
    @Test func everyRouteIsDescribedAndEveryDescribedRouteExists() async throws {
        let api = try APIHarness()
        let reply = try await api.send(.get, "/api/v1/openapi.json", as: nil)
        #expect(reply.status == 200)
        #expect(reply.json["openapi"] as? String == "3.1.0")
        let paths = try #require(reply.json["paths"] as? [String: [String: Any]])
        var described: Set<String> = []
        for (path, item) in paths {
            for method in item.keys where method != "parameters" {
                described.insert(method.uppercased() + " " + path.replacingOccurrences(of: "{id}", with: ":id"))
            }
        }
        let served = SlateAPI(container: api.container, secureCookies: false)
        let routed = Set(served.router.routeTable.map { "\($0.method) \($0.pattern)" })
        #expect(routed.subtracting(described).isEmpty, "routes missing from the document: \(routed.subtracting(described).sorted())")
        #expect(described.subtracting(routed).isEmpty, "documented routes that do not exist: \(described.subtracting(routed).sorted())")
    }

    @Test func theTaskSchemaListsEveryFieldTheAPIReturns() async throws {
        let api = try APIHarness()
        let task = try await api.send(.post, "/api/v1/tasks", json: ["title": "Shape"])
        let document = try #require(try await api.send(.get, "/api/v1/openapi.json").json["components"] as? [String: Any])
        let schema = try #require((document["schemas"] as? [String: Any])?["Task"] as? [String: Any])
        #expect(Set(schema["required"] as? [String] ?? []) == Set(task.json.keys))
    }
}

@Suite struct JSONWriterTests {
    @Test func writesValidCompactJSONWithSortedKeysAndEscapes() throws {
        let value: [String: Any] = [
            "b": [1, 2.5, true, NSNull(), "x"] as [Any], "a": "quote \" slash \\ line\n tab\t bell\u{07} é ✓",
            "c": ["z": 1, "y": [String: Any]()] as [String: Any], "d": -0.25, "e": false,
        ]
        let data = JSONSerialization.body(value)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix(#"{"a":"quote \" slash \\ line\n tab\t bell\u0007 é ✓","b":[1,2.5,true,null,"x"],"c":{"y":{},"z":1}"#))
        let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(parsed["a"] as? String == value["a"] as? String)
        #expect(parsed["d"] as? Double == -0.25 && parsed["e"] as? Bool == false)
    }
}

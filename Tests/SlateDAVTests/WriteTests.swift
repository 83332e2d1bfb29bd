import Foundation
import SlateCore
import Testing

@Suite("CalDAV PUT, GET, DELETE and the task mapping")
struct WriteTests {
    @Test("PUT then GET returns the bytes as sent with the same strong ETag")
    func putGetByteExact() async throws {
        let dav = try DAVHarness()
        let text = DAVHarness.todo(uid: "a1@example.com", summary: "Mix the trailer", extra: ["X-CUSTOM;FOO=bar:kept as is", "PRIORITY:2"])
        let put = try await dav.put("a1.ics", text)
        #expect(put.status == 201)
        let etag = try #require(put.headers["ETag"])
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        let get = try await dav.send(.get, "/dav/calendars/ana/inbox/a1.ics")
        #expect(get.status == 200)
        #expect(get.body == Data(text.utf8))
        #expect(get.headers["ETag"] == etag)
        #expect(get.headers["Content-Type"]?.hasPrefix("text/calendar") == true)
        #expect(get.headers["Last-Modified"]?.range(of: #"^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$"#, options: .regularExpression) != nil)
        let task = try #require(try dav.slate().tasks().first)
        #expect(task.title == "Mix the trailer")
        #expect(task.priority == .high)
    }

    @Test("A change in Slate rewrites only the changed property line")
    func slateChangeRewritesOneLine() async throws {
        let dav = try DAVHarness()
        let text = DAVHarness.todo(uid: "a2@example.com", summary: "Old title", extra: ["X-MOZ-LASTACK:20261201T080000Z", "DUE;VALUE=DATE:20261224"])
        let put = try await dav.put("a2.ics", text)
        let task = try #require(try dav.slate().tasks().first)
        try dav.slate().updateTask(task.id, TaskPatch(title: "New title"))
        let get = try await dav.send(.get, "/dav/calendars/ana/inbox/a2.ics")
        #expect(get.headers["ETag"] != put.headers["ETag"])
        #expect(get.text.withoutVersionLines == text.replacingOccurrences(of: "SUMMARY:Old title", with: "SUMMARY:New title").withoutVersionLines)
    }

    @Test("The VTODO fields map to the task: due, completion, tags, parent, repeats, order")
    func mapping() async throws {
        let dav = try DAVHarness()
        try await dav.put("parent.ics", DAVHarness.todo(uid: "parent-1", summary: "Parent"))
        try await dav.put("child.ics", DAVHarness.todo(uid: "child-1", summary: "Child", extra: [
            "RELATED-TO;RELTYPE=PARENT:parent-1", "DUE;TZID=America/New_York:20261224T170000", "STATUS:COMPLETED",
            "COMPLETED:20261201T100000Z", "CATEGORIES:Work,Sound", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", "X-APPLE-SORT-ORDER:42",
        ]))
        let tasks = try dav.slate().tasks()
        let parent = try #require(tasks.first { $0.title == "Parent" })
        let child = try #require(tasks.first { $0.title == "Child" })
        #expect(child.parentID == parent.id)
        #expect(child.due == Date(timeIntervalSince1970: 1_798_149_600))   // 2026-12-24T22:00:00Z
        #expect(child.isAllDay == false)
        #expect(child.isCompleted)
        #expect(child.tags == ["work", "sound"])
        #expect(child.recurrence == Recurrence(.weekly, interval: 2))
        #expect(child.order == 42)
    }

    @Test("A subtask stored before its parent is linked when the parent arrives; its bytes stay as sent")
    func childBeforeParent() async throws {
        let dav = try DAVHarness()
        let child = DAVHarness.todo(uid: "late-child", summary: "Child first", extra: ["RELATED-TO;RELTYPE=PARENT:late-parent"])
        try await dav.put("child.ics", child)
        #expect(try dav.slate().tasks().first?.parentID == nil)
        try await dav.put("parent.ics", DAVHarness.todo(uid: "late-parent", summary: "Parent later"))
        let tasks = try dav.slate().tasks()
        let parent = try #require(tasks.first { $0.title == "Parent later" })
        #expect(tasks.first { $0.title == "Child first" }?.parentID == parent.id)
        #expect(try await dav.send(.get, "/dav/calendars/ana/inbox/child.ics").text == child)
    }

    @Test("If-None-Match: * on an existing resource and a stale If-Match answer 412; a fresh one works")
    func conditionalPut() async throws {
        let dav = try DAVHarness()
        let first = try await dav.put("c.ics", DAVHarness.todo(uid: "c", summary: "One"), headers: ["If-None-Match": "*"])
        #expect(first.status == 201)
        let again = try await dav.put("c.ics", DAVHarness.todo(uid: "c", summary: "Two"), headers: ["If-None-Match": "*"])
        #expect(again.status == 412)
        // Revisions are Ana's own (her first change is 1): any other number is stale.
        let stale = try await dav.put("c.ics", DAVHarness.todo(uid: "c", summary: "Two"), headers: ["If-Match": "\"99\""])
        #expect(stale.status == 412)
        let fresh = try await dav.put("c.ics", DAVHarness.todo(uid: "c", summary: "Two"), headers: ["If-Match": first.headers["ETag"]!])
        #expect(fresh.status == 204)
        #expect(try dav.slate().tasks().map(\.title) == ["Two"])
        let missing = try await dav.put("d.ics", DAVHarness.todo(uid: "d", summary: "Nope"), headers: ["If-Match": "\"5\""])
        #expect(missing.status == 412)
    }

    @Test("A parent's ETag from before a subtask was added still writes it; one from before its own change is 412")
    func ifMatchAcrossASubtaskChange() async throws {
        let dav = try DAVHarness()
        let put = try await dav.put("p.ics", DAVHarness.todo(uid: "p", summary: "Scout locations"))
        let before = try #require(put.headers["ETag"])
        let slate = dav.slate()
        let parent = try #require(try slate.tasks().first)
        _ = try slate.addTask(TaskDraft(title: "Call the council", parentID: parent.id))
        #expect(try await dav.send(.get, "/dav/calendars/ana/inbox/p.ics").headers["ETag"] != before)
        let edited = try await dav.put("p.ics", DAVHarness.todo(uid: "p", summary: "Scout locations (north)"), headers: ["If-Match": before])
        #expect(edited.status == 204, "only the subtasks changed since that ETag")
        #expect(try slate.task(id: parent.id).model.title == "Scout locations (north)")

        let current = try #require(try await dav.send(.get, "/dav/calendars/ana/inbox/p.ics").headers["ETag"])
        try slate.updateTask(parent.id, TaskPatch(title: "Scout locations (south)"))
        let stale = try await dav.put("p.ics", DAVHarness.todo(uid: "p", summary: "Mine"), headers: ["If-Match": current])
        #expect(stale.status == 412)
        #expect(try await dav.send(.delete, "/dav/calendars/ana/inbox/p.ics", headers: ["If-Match": current]).status == 412)
    }

    @Test("A subtask stored, completed or moved by PUT makes its parents part of the change (their subtask counts move)")
    func subtaskPutTouchesItsParent() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("p1.ics", DAVHarness.todo(uid: "p1", summary: "Build the set")).status == 201)
        #expect(try await dav.put("p2.ics", DAVHarness.todo(uid: "p2", summary: "Strike the set")).status == 201)
        let slate = dav.slate()
        let tasks = try slate.tasks()
        let first = try #require(tasks.first { $0.title == "Build the set" }).id
        let second = try #require(tasks.first { $0.title == "Strike the set" }).id

        func expectTouched(_ parents: [UUID], by child: String, _ what: Comment) throws {
            let childTask = try #require(try slate.tasks().first { $0.title == child })
            let revision = try slate.task(id: childTask.id).revision
            for parent in parents { #expect(try slate.task(id: parent).revision == revision, what) }
        }
        #expect(try await dav.put("c.ics", DAVHarness.todo(uid: "c", summary: "Paint flats", extra: ["RELATED-TO;RELTYPE=PARENT:p1"])).status == 201)
        try expectTouched([first], by: "Paint flats", "a subtask added")
        #expect(try slate.subtaskCounts(of: [first])[first] == SubtaskCount(active: 1, total: 1))
        #expect(try await dav.put("c.ics", DAVHarness.todo(uid: "c", summary: "Paint flats", extra: ["RELATED-TO;RELTYPE=PARENT:p1", "STATUS:COMPLETED"])).status == 204)
        try expectTouched([first], by: "Paint flats", "a subtask completed")
        #expect(try await dav.put("c.ics", DAVHarness.todo(uid: "c", summary: "Paint flats", extra: ["RELATED-TO;RELTYPE=PARENT:p2", "STATUS:COMPLETED"])).status == 204)
        try expectTouched([first, second], by: "Paint flats", "a subtask moved to another parent")
    }

    @Test("DELETE removes the task; a stale If-Match is 412; deleting again is 404")
    func deleteObject() async throws {
        let dav = try DAVHarness()
        let put = try await dav.put("e.ics", DAVHarness.todo(uid: "e", summary: "Gone soon"))
        let stale = try await dav.send(.delete, "/dav/calendars/ana/inbox/e.ics", headers: ["If-Match": "\"999999\""])
        #expect(stale.status == 412)
        let deleted = try await dav.send(.delete, "/dav/calendars/ana/inbox/e.ics", headers: ["If-Match": put.headers["ETag"]!])
        #expect(deleted.status == 204)
        #expect(try dav.slate().tasks().isEmpty)
        #expect(try await dav.send(.delete, "/dav/calendars/ana/inbox/e.ics").status == 404)
        // The name is free again: a new resource there is a new task.
        #expect(try await dav.put("e.ics", DAVHarness.todo(uid: "e2", summary: "Back again")).status == 201)
        #expect(try dav.slate().tasks().map(\.title) == ["Back again"])
    }

    @Test("Bad input: malformed iCalendar 400 valid-calendar-data, VEVENT 403, UID conflict 403, over-size 413; nothing written")
    func badInput() async throws {
        let dav = try DAVHarness()
        let garbage = try await dav.put("bad.ics", "this is not a calendar")
        #expect(garbage.status == 400)
        #expect(garbage.text.contains("valid-calendar-data"))
        let unclosed = try await dav.put("bad.ics", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\nEND:VCALENDAR\r\n")
        #expect(unclosed.status == 400)
        let event = try await dav.put("event.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:ev\r\nDTSTART:20261201T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        #expect(event.status == 403)
        #expect(event.text.contains("supported-calendar-component"))
        let badDate = try await dav.put("date.ics", DAVHarness.todo(uid: "d1", summary: "x", extra: ["DUE:2026-12-01"]))
        #expect(badDate.status == 400)
        #expect(badDate.text.contains("DUE"))
        let huge = try await dav.put("huge.ics", DAVHarness.todo(uid: "h", summary: "x", extra: ["X-BIG:" + String(repeating: "a", count: 600_000)]))
        #expect(huge.status == 413)
        #expect(try dav.slate().tasks().isEmpty)
        try await dav.put("one.ics", DAVHarness.todo(uid: "same-uid", summary: "One"))
        let conflict = try await dav.put("two.ics", DAVHarness.todo(uid: "same-uid", summary: "Two"))
        #expect(conflict.status == 403)
        #expect(conflict.text.contains("no-uid-conflict"))
        #expect(try dav.slate().tasks().map(\.title) == ["One"])
        let wrongType = try await dav.send(.put, "/dav/calendars/ana/inbox/j.ics", headers: ["Content-Type": "application/json"], body: "{}")
        #expect(wrongType.status == 415)
    }

    @Test("A task made in Slate is served as a fresh VTODO with CRLF lines")
    func slateTaskServed() async throws {
        let dav = try DAVHarness()
        let task = try dav.slate().addTask(TaskDraft(title: "Written in Slate", priority: .critical, tags: ["story"]))
        let get = try await dav.send(.get, "/dav/calendars/ana/inbox/\(task.id.uuidString).ics")
        #expect(get.status == 200)
        #expect(get.text.contains("UID:\(task.id.uuidString)\r\n"))
        #expect(get.text.contains("SUMMARY:Written in Slate\r\n"))
        #expect(get.text.contains("PRIORITY:1\r\nX-SLATE-PRIORITY:critical\r\n"))
        #expect(get.text.contains("CATEGORIES:story\r\n"))
    }

    @Test("Another account's resources, collections and home look exactly like missing ones, on every method")
    func isolation() async throws {
        let dav = try DAVHarness()
        try await dav.put("secret.ics", DAVHarness.todo(uid: "secret", summary: "Ana's secret"))
        let list = try dav.slate().createList(name: "Private")
        let paths = ["/dav/calendars/ana/inbox/secret.ics", "/dav/calendars/ana/\(list.id.uuidString.lowercased())/", "/dav/calendars/ana/",
                     "/dav/principals/ana/"]
        for path in paths {
            let foreign = try await dav.propfind(path, ["d:displayname"], as: "ben")
            let missing = try await dav.propfind(path.replacingOccurrences(of: "/ana/", with: "/nobody-here/"), ["d:displayname"], as: "ben")
            #expect(foreign.status == 404)
            #expect(foreign.body == missing.body.replacingOccurrences(of: "nobody-here", with: "ana"))
        }
        let methods: [(String, String)] = [("GET", ""), ("DELETE", ""), ("PUT", DAVHarness.todo(uid: "secret", summary: "Taken")),
                                           ("PROPPATCH", "<d:propertyupdate xmlns:d=\"DAV:\"/>"), ("REPORT", "<d:sync-collection xmlns:d=\"DAV:\"/>"),
                                           ("MKCALENDAR", "")]
        for (method, body) in methods {
            let path = method == "MKCALENDAR" ? "/dav/calendars/ana/new/" : method == "PUT" || method == "GET" || method == "DELETE"
                ? paths[0] : paths[1]
            let reply = try await dav.send(.init(rawValue: method), path, as: "ben", headers: ["Content-Type": "text/calendar"], body: body)
            #expect(reply.status == 404, "\(method) \(path)")
        }
        #expect(try dav.slate().tasks().map(\.title) == ["Ana's secret"])
        #expect(try dav.slate("ben").tasks().isEmpty)
        #expect(try dav.slate().listsWithoutCounts().count == 1)
    }

    @Test("A UID that is another account's task id, live or deleted, tells nothing and takes nothing from it")
    func uidOfAnotherAccountsTask() async throws {
        let dav = try DAVHarness()
        let live = try dav.slate().addTask(TaskDraft(title: "Ana's live task"))
        let gone = try dav.slate().addTask(TaskDraft(title: "Ana's deleted task"))
        try dav.slate().deleteTasks([gone.id])
        let unused = UUID()
        for uid in [live.id, gone.id, unused] {
            let reply = try await dav.put("\(uid.uuidString).ics", DAVHarness.todo(uid: uid.uuidString, summary: "Ben's"), as: "ben")
            #expect(reply.status == 201)
        }
        // Ben's tasks get ids of his own, the same way whether the UID was taken elsewhere or not.
        let ids = Set(try dav.slate("ben").tasks().map(\.id))
        #expect(ids.count == 3 && ids.isDisjoint(with: [live.id, gone.id, unused]))
        // Ana's deletion is still there for her devices to learn.
        #expect(try dav.slate().changes(since: 0).deletedTaskIDs.contains(gone.id))
        #expect(try dav.slate().tasks().map(\.title) == ["Ana's live task"])
    }
}

extension Data {
    func replacingOccurrences(of target: String, with replacement: String) -> Data {
        Data(String(decoding: self, as: UTF8.self).replacingOccurrences(of: target, with: replacement).utf8)
    }
}

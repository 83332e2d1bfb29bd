import Foundation
import SlateCore
import SlateHTTP
import SlateServer
import Testing

@Suite struct AlertAPITests {
    @Test func tasksTakeAlertsAndRefuseBadOnesNamingTheForms() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "Mix", "due": "2026-11-29T17:00:00Z", "alerts": ["15m", "1d@9:00"]])
        #expect(created.status == 201)
        #expect(created.json["alerts"] as? [String] == ["15m", "1d@09:00"])
        let defaulted = try await api.send(.post, "/api/v1/tasks", json: ["title": "Grade", "due": "2026-11-30T17:00:00Z"])
        #expect(defaulted.json["alerts"] as? [String] == ["due"])

        let unknown = try await api.send(.post, "/api/v1/tasks", json: ["title": "Mix", "due": "2026-11-29T17:00:00Z", "alerts": ["soon"]])
        #expect(unknown.status == 422 && unknown.errorField == "alerts")
        #expect(unknown.errorMessage?.contains("'1d@9:00'") == true, "\(unknown.errorMessage ?? "")")
        let undated = try await api.send(.post, "/api/v1/tasks", json: ["title": "Someday", "alerts": ["15m"]])
        #expect(undated.status == 422 && undated.errorField == "alerts" && undated.errorMessage?.contains("due date") == true)

        let id = try #require(created.json["id"] as? String)
        let cleared = try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["alerts": NSNull()])
        #expect(cleared.status == 200 && cleared.json["alerts"] as? [String] == [])
    }

    @Test func snoozeDismissAndUpcoming() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "Call", "due": "2026-11-29T12:00:00Z", "alerts": ["30m"]])
        let id = try #require(created.json["id"] as? String)
        let upcoming = try await api.send(.get, "/api/v1/alerts")
        let first = try #require((upcoming.json["alerts"] as? [[String: Any]])?.first)
        #expect(first["fireAt"] as? String == "2026-11-29T11:30:00.000Z" && first["snoozed"] as? Bool == false)

        let snoozed = try await api.send(.post, "/api/v1/tasks/\(id)/snooze", json: ["until": "10m"])
        #expect(snoozed.status == 200 && snoozed.json["snoozedUntil"] as? String == "2026-11-29T09:25:00.000Z")
        let after = try await api.send(.get, "/api/v1/alerts")
        #expect((after.json["alerts"] as? [[String: Any]])?.first?["snoozed"] as? Bool == true)

        let bad = try await api.send(.post, "/api/v1/tasks/\(id)/snooze", json: ["until": "later"])
        #expect(bad.status == 422 && bad.errorField == "until" && bad.errorMessage?.contains("tomorrow") == true)
        let foreign = try await api.send(.post, "/api/v1/tasks/\(id)/snooze", as: "b", json: ["until": "1h"])
        #expect(foreign.status == 404, "another account's task is not found")
        let dismissed = try await api.send(.post, "/api/v1/tasks/\(id)/dismiss")
        #expect(dismissed.status == 200 && dismissed.json["snoozedUntil"] is NSNull)
    }

    @Test func settingsSetDefaultsAndAWebhookWithASecret() async throws {
        let api = try APIHarness()
        let initial = try await api.send(.get, "/api/v1/alerts/settings")
        #expect(initial.json["timedDefaults"] as? [String] == ["due"] && initial.json["allDayDefaults"] as? [String] == ["0d@09:00"])
        let changed = try await api.send(.patch, "/api/v1/alerts/settings",
                                         json: ["timedDefaults": ["10m"], "webhookURL": "http://127.0.0.1:9/hook", "email": "ana@example.org"])
        #expect(changed.status == 200)
        let secret = try #require(changed.json["webhookSecret"] as? String)
        #expect(secret.count == 64)
        let read = try await api.send(.get, "/api/v1/alerts/settings")
        #expect(read.json["webhookSecret"] is NSNull, "the secret is shown once, when it is made")
        let again = try await api.send(.patch, "/api/v1/alerts/settings", json: ["webhookURL": "http://127.0.0.1:9/other"])
        #expect(again.json["webhookSecret"] is NSNull, "changing the URL keeps the secret, unshown")
        let renewed = try await api.send(.patch, "/api/v1/alerts/settings", json: ["newWebhookSecret": true])
        let newSecret = try #require(renewed.json["webhookSecret"] as? String)
        #expect(newSecret.count == 64 && newSecret != secret)
        let task = try await api.send(.post, "/api/v1/tasks", json: ["title": "Grade", "due": "2026-11-30T17:00:00Z"])
        #expect(task.json["alerts"] as? [String] == ["10m"])
        let badURL = try await api.send(.patch, "/api/v1/alerts/settings", json: ["webhookURL": "ftp://example.org"])
        #expect(badURL.status == 422 && badURL.errorField == "webhookURL")
        let badEmail = try await api.send(.patch, "/api/v1/alerts/settings", json: ["email": "not an address"])
        #expect(badEmail.status == 422 && badEmail.errorField == "email")
        let other = try await api.send(.get, "/api/v1/alerts/settings", as: "b")
        #expect(other.json["webhookURL"] is NSNull, "settings are per account")
        let noHook = try await api.send(.patch, "/api/v1/alerts/settings", as: "b", json: ["newWebhookSecret": true])
        #expect(noHook.status == 422 && noHook.errorField == "newWebhookSecret")
    }

    @Test func aTestAlertIsAskedForAndReachesTheAccountsOpenPages() async throws {
        let api = try APIHarness()
        let mine = try await api.api.router.respond(to: Request(method: .get, target: "/api/v1/events", headers: ["X-Account": "a"]))
        let asked = try await api.send(.post, "/api/v1/alerts/test")
        #expect(asked.status == 202 && asked.json["title"] as? String == TestAlert.title)
        let scheduler = AlertScheduler(container: api.container, channels: [api.api.pageAlerts])
        try await scheduler.deliverPending()
        guard let chunks = mine.body.chunks else { Issue.record("not a stream"); return }
        var iterator = chunks.makeAsyncIterator()
        var text = ""
        while !text.contains("event: alert"), let chunk = await iterator.next() { text += String(decoding: chunk, as: UTF8.self) }
        #expect(text.contains("\"test\":true") && text.contains(TestAlert.title))
    }

    @Test func reminderOffsetIsRefusedNamingAlerts() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "Old client", "due": "2026-11-29T17:00:00Z", "reminderOffset": 900])
        #expect(created.status == 422 && created.errorField == "reminderOffset" && created.errorMessage?.contains("alerts") == true)
    }

    @Test func anAlertReachesTheAccountsOpenPagesOnly() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "Pick up the reels", "due": "2026-11-29T09:20:00Z"])
        let mine = try await api.api.router.respond(to: Request(method: .get, target: "/api/v1/events", headers: ["X-Account": "a"]))
        let theirs = try await api.api.router.respond(to: Request(method: .get, target: "/api/v1/events", headers: ["X-Account": "b"]))
        let scheduler = AlertScheduler(container: api.container, channels: [api.api.pageAlerts],
                                       clock: { APIHarness.now.addingTimeInterval(8 * 60) })
        try scheduler.syncCursors()
        #expect(try scheduler.fireDue() == 1)
        #expect(try await scheduler.deliverPending() == 1)
        let events = try await EventsTests().events(mine, count: 2)
        #expect(events[1].hasPrefix("event: alert\ndata: "), "\(events)")
        #expect(events[1].contains("\"title\":\"Pick up the reels\"") && events[1].contains(created.json["id"] as? String ?? "?"))
        #expect(events[1].contains("\"late\":true"), "three minutes after its moment")
        guard let chunks = theirs.body.chunks else { Issue.record("not a stream"); return }
        var iterator = chunks.makeAsyncIterator()
        let hello = String(decoding: try #require(await iterator.next()), as: UTF8.self)
        #expect(hello.contains("event: hello") && !hello.contains("alert"))
    }
}

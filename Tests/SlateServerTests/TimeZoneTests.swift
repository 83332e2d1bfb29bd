import Foundation
import SlateCore
import SlateHTTP
@testable import SlateServer
import Testing

/// Dates and times are read in the user's zone: the client's header, else the account's
/// default, else the server's.
@Suite struct TimeZoneTests {
    /// 17:00 on Friday 4 December 2026 in New York (EST, UTC−5), the Friday after the harness's Sunday.
    static let fridayFivePMNewYork = "2026-12-04T22:00:00.000Z"

    @Test func quickEntryAndDuePhrasesAreReadInTheClientsZone() async throws {
        let api = try APIHarness()
        let parsed = try await api.send(.post, "/api/v1/tasks/parse", json: ["text": "Mix the trailer fri 5pm"], zone: "America/New_York")
        #expect(parsed.status == 200)
        #expect(parsed.json["due"] as? String == Self.fridayFivePMNewYork)

        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "Mix", "due": "fri 5pm"], zone: "America/New_York")
        #expect(created.status == 201)
        #expect(created.json["due"] as? String == Self.fridayFivePMNewYork)
        let id = try #require(created.json["id"] as? String)

        let patched = try await api.send(.patch, "/api/v1/tasks/\(id)", json: ["due": "fri 9am"], zone: "Asia/Tokyo")
        #expect(patched.json["due"] as? String == "2026-12-04T00:00:00.000Z", "09:00 Tokyo is midnight UTC")

        // The same words in Paris are another moment.
        let paris = try await api.send(.post, "/api/v1/tasks/parse", json: ["text": "Mix fri 5pm"], zone: "Europe/Paris")
        #expect(paris.json["due"] as? String == "2026-12-04T16:00:00.000Z")
    }

    @Test func theAccountsDefaultZoneServesClientsThatSendNone() async throws {
        let api = try APIHarness()
        let initial = try await api.send(.get, "/api/v1/account", zone: nil)
        #expect(initial.status == 200 && initial.json["timeZone"] is NSNull && initial.json["name"] as? String == "ana")

        let set = try await api.send(.patch, "/api/v1/account", json: ["timeZone": "America/New_York"], zone: nil)
        #expect(set.status == 200 && set.json["timeZone"] as? String == "America/New_York")
        let parsed = try await api.send(.post, "/api/v1/tasks/parse", json: ["text": "Mix fri 5pm"], zone: nil)
        #expect(parsed.json["due"] as? String == Self.fridayFivePMNewYork)

        // Another account keeps the server's zone; a header still wins over the default.
        let other = try await api.send(.get, "/api/v1/account", as: "b", zone: nil)
        #expect(other.json["timeZone"] is NSNull)
        let tokyo = try await api.send(.post, "/api/v1/tasks/parse", json: ["text": "Mix fri 9am"], zone: "Asia/Tokyo")
        #expect(tokyo.json["due"] as? String == "2026-12-04T00:00:00.000Z")

        let cleared = try await api.send(.patch, "/api/v1/account", json: ["timeZone": NSNull()], zone: nil)
        #expect(cleared.status == 200 && cleared.json["timeZone"] is NSNull)
    }

    /// An all-day date is the day it was set to for every reader: set in Tokyo on the
    /// evening of 29 November, it is the 29th (due today, not overdue) in Los Angeles that
    /// morning, and in a CalDAV client (the server's zone).
    @Test func anAllDayDateIsTheSameDayForAReaderInAnotherZone() async throws {
        let api = try APIHarness()
        let created = try await api.send(.post, "/api/v1/tasks", json: ["title": "Wrap party", "due": "2026-11-29"], zone: "Asia/Tokyo")
        #expect(created.status == 201 && created.json["due"] as? String == "2026-11-29")
        let id = try #require(created.json["id"] as? String)

        let read = try await api.send(.get, "/api/v1/tasks/\(id)", zone: "America/Los_Angeles")
        #expect(read.json["due"] as? String == "2026-11-29")
        #expect(read.json["isOverdue"] as? Bool == false)
        let today = try await api.send(.get, "/api/v1/tasks?scope=today", zone: "America/Los_Angeles")
        #expect((today.json["tasks"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])
        let overdue = try await api.send(.get, "/api/v1/tasks?scope=overdue", zone: "America/Los_Angeles")
        #expect((overdue.json["tasks"] as? [[String: Any]])?.isEmpty == true)
        let page = try await api.send(.get, "/api/v1/tasks", zone: nil)
        #expect((page.json["tasks"] as? [[String: Any]])?.first?["due"] as? String == "2026-11-29", "the server's zone")
    }

    /// The names browsers send are zones, though Foundation's list leaves them out: Firefox
    /// says `Asia/Kolkata` for India, Chrome `America/Buenos_Aires`, `Asia/Saigon`,
    /// `America/Indianapolis`. Refusing them made the web app show nothing there.
    @Test func theZoneNamesBrowsersSendAreAccepted() async throws {
        let api = try APIHarness()
        for name in ["Asia/Kolkata", "America/Buenos_Aires", "Asia/Saigon", "America/Indianapolis", "Etc/UTC", "US/Eastern", "Asia/Calcutta"] {
            let page = try await api.send(.get, "/api/v1/tasks", zone: name)
            #expect(page.status == 200, "\(name)")
            let set = try await api.send(.patch, "/api/v1/account", json: ["timeZone": name], zone: nil)
            #expect(set.status == 200 && set.json["timeZone"] as? String == name, "\(name)")
        }
        for name in ["EST", "GMT+5", "est", "Mars/Olympus"] {
            #expect(try await api.send(.get, "/api/v1/tasks", zone: name).status == 400, "\(name)")
        }
    }

    /// A zone typed in another case is the zone: stored and answered under its own name.
    @Test func aZoneNameInAnotherCaseIsTheZone() async throws {
        let api = try APIHarness()
        #expect(try await api.send(.get, "/api/v1/tasks", zone: "europe/paris").status == 200)
        let set = try await api.send(.patch, "/api/v1/account", json: ["timeZone": "AMERICA/NEW_YORK"], zone: nil)
        #expect(set.status == 200 && set.json["timeZone"] as? String == "America/New_York")
        // UTC stays UTC (Foundation names that zone GMT): what a browser in UTC sends is what it reads back.
        let utc = try await api.send(.patch, "/api/v1/account", json: ["timeZone": "UTC"], zone: nil)
        #expect(utc.status == 200 && utc.json["timeZone"] as? String == "UTC")
        #expect(try await api.send(.get, "/api/v1/account", zone: nil).json["timeZone"] as? String == "UTC")
    }

    @Test func anUnknownZoneIsRefusedNamingWhereItCameFrom() async throws {
        let api = try APIHarness()
        for name in ["Mars/Olympus", "EST5EDT-ish", "", "../../etc/passwd", String(repeating: "A", count: 300)] {
            let header = try await api.send(.post, "/api/v1/tasks/parse", json: ["text": "x fri 5pm"], zone: name)
            #expect(header.status == 400, "\(name)")
            #expect(header.errorField == "X-Slate-Time-Zone")
            #expect(header.errorMessage?.contains("Europe/Paris") == true, "the message shows the accepted form")

            let account = try await api.send(.patch, "/api/v1/account", json: ["timeZone": name], zone: nil)
            #expect(account.status == 422 && account.errorField == "timeZone", "\(name)")
        }
        #expect(try await api.send(.get, "/api/v1/account", zone: nil).json["timeZone"] is NSNull, "nothing was written")
    }
}

import Foundation
import SlateCore
import SlateHTTP
import SlateServer
import Testing

@testable import SlateCLI

/// The same due and repeat phrases are accepted or refused identically by the CLI and the
/// API, and mean the same: both read them with SlateCore's `TaskValues`.
@Suite struct SameRulesTests {
    static let duePhrases = [
        "tomorrow 5pm", "fri", "next week", "in 3 days", "2026-12-24", "24 dec", "17:30", "2026-12-24T17:00:00Z",
        "2026-12-24T17:00", "2026-12-24T17:00:30", "2026-12-24T25:00", "2026-12-24T5:00", "none", "someday", "2026-02-30", "25:00", "tomorrow at teatime",
    ]
    static let repeatPhrases = [
        "every 2 weeks", "2 weeks", "weekly", "daily", "weekly/2", "every other month", "every monday", "fortnightly",
        "3 days", "none", "every blue moon", "every 0 days", "every 1001 days", "sometimes",
    ]

    /// An API over a fresh store, at the CLI harness's moment and zone.
    struct API {
        let api: SlateAPI

        init() throws {
            let store = try Slate.openContainer(path: nil)
            let account = try Slate.ensureAccount(named: "ana", in: store, now: CLIHarness.now)
            api = SlateAPI(container: store, authenticate: { _ in account.id }, clock: { CLIHarness.now })
        }

        /// The created task's value of `key`, or nil when the API refused the task.
        func create(_ field: String, _ value: String, key: String) async throws -> Any?? {
            let body = try JSONSerialization.data(withJSONObject: ["title": "Probe", field: value])
            let response = try await api.router.respond(to: Request(
                method: .post, target: "/api/v1/tasks",
                headers: ["Content-Type": "application/json", "X-Slate-Time-Zone": "Europe/Paris"], body: body))
            let json = (try JSONSerialization.jsonObject(with: response.bodyData ?? Data())) as? [String: Any] ?? [:]
            if response.status.code == 201 { return .some(json[key]) }
            #expect(response.status.code == 422, "\(field) '\(value)': \(json)")
            #expect((json["error"] as? [String: Any])?["field"] as? String == field)
            return nil
        }
    }

    func viaCLI(_ cli: CLIHarness, _ option: String, _ value: String, key: String) -> Any?? {
        let result = cli.run("add", "Probe", "--\(option)", value, "--json")
        guard result.code == 0 else {
            #expect(result.code == 2 && result.err.contains("--\(option)"), "\(option) '\(value)': \(result.err)")
            return nil
        }
        let json = (try? JSONSerialization.jsonObject(with: Data(result.out.utf8))) as? [String: Any] ?? [:]
        return .some(json[key])
    }

    static func same(_ lhs: Any??, _ rhs: Any??) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (let left??, let right??): return (left as? NSObject) == (right as? NSObject)
        case (.some(nil), .some(nil)): return true
        default: return (lhs.flatMap { $0 } is NSNull && rhs.flatMap { $0 } is NSNull)
        }
    }

    @Test func duePhrasesMeanTheSameEverywhere() async throws {
        let cli = try CLIHarness()
        let api = try API()
        var accepted = 0
        for phrase in Self.duePhrases {
            let fromCLI = viaCLI(cli, "due", phrase, key: "due")
            let fromAPI = try await api.create("due", phrase, key: "due")
            #expect(Self.same(fromCLI, fromAPI), "'\(phrase)': CLI \(String(describing: fromCLI)), API \(String(describing: fromAPI))")
            if fromAPI != nil { accepted += 1 }
        }
        #expect(accepted == 11 && Self.duePhrases.count - accepted == 6, "the table has both kinds")
    }

    @Test func repeatPhrasesMeanTheSameEverywhere() async throws {
        let cli = try CLIHarness()
        let api = try API()
        var accepted = 0
        for phrase in Self.repeatPhrases {
            let fromCLI = viaCLI(cli, "repeat", phrase, key: "recurrence")
            let fromAPI = try await api.create("recurrence", phrase, key: "recurrence")
            #expect(Self.same(fromCLI, fromAPI), "'\(phrase)': CLI \(String(describing: fromCLI)), API \(String(describing: fromAPI))")
            if fromAPI != nil { accepted += 1 }
        }
        #expect(accepted == 10, "the table has both kinds")
        #expect(try await api.create("recurrence", "2 weeks", key: "recurrence") as? String == "every 2 weeks")
    }
}

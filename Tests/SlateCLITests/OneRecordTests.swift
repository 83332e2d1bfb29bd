import Foundation
import SlateCore
import SlateHTTP
import SlateServer
import Testing

@testable import SlateCLI

/// Every surface gives a task as the one record: the API's task object, `slate show
/// --json` and the task in a Slate JSON export have the same keys and the same values.
@Suite struct OneRecordTests {
    @Test func theAPIShowAndExportGiveTheSameTask() async throws {
        let cli = try CLIHarness()
        #expect(cli.run("lists", "add", "Story", "--color", "#FF6B6B", "--icon", "book").code == 0)
        #expect(cli.run("add", "Write Act 2 outline", "--due", "fri 5pm", "--repeat", "2 weeks", "--priority", "high",
                        "--list", "Story", "--tag", "script", "--flag", "--notes", "Woody's museum").code == 0)
        #expect(cli.run("add", "Opening shot", "--parent", "1").code == 0)

        let shown = try #require(try cli.json("show", "1") as? [String: Any])
        var fromShow = shown
        fromShow.removeValue(forKey: "subtasks")   // show's own addition: the subtasks themselves

        let export = cli.run("export", "--format", "json")
        #expect(export.code == 0)
        let file = try #require(try JSONSerialization.jsonObject(with: Data(export.out.utf8)) as? [String: Any])
        let exported = try #require((file["tasks"] as? [[String: Any]])?.first { $0["number"] as? Int == 1 })

        let store = try Slate.openContainer(path: cli.database)
        let account = try #require(try AccountDirectory(container: store).account(named: Account.localName))
        let api = SlateAPI(container: store, authenticate: { _ in account.id }, clock: { CLIHarness.now })
        let id = try #require(shown["id"] as? String)
        let response = try await api.router.respond(to: Request(method: .get, target: "/api/v1/tasks/\(id)",
                                                               headers: ["X-Slate-Time-Zone": "Europe/Paris"]))
        let fromAPI = try #require(try JSONSerialization.jsonObject(with: response.bodyData ?? Data()) as? [String: Any])

        #expect(Set(fromAPI.keys) == Set(TaskRecord.names))
        #expect(Set(fromShow.keys) == Set(TaskRecord.names))
        #expect(Set(exported.keys) == Set(TaskRecord.names))
        #expect(fromAPI as NSDictionary == fromShow as NSDictionary, "API and show --json")
        #expect(fromAPI as NSDictionary == exported as NSDictionary, "API and the export")
        #expect(fromAPI["recurrence"] as? String == "every 2 weeks" && fromAPI["listId"] is String)
        #expect(fromAPI["subtaskCount"] as? [String: Int] == ["active": 1, "total": 1])

        let listFromCLI = try #require((try cli.json("lists") as? [[String: Any]])?.first)
        let listFromFile = try #require((file["lists"] as? [[String: Any]])?.first)
        #expect(Set(listFromCLI.keys) == Set(ListRecord.names))
        #expect(Set(listFromFile.keys) == Set(ListRecord.fields.filter(\.isExported).map(\.name)))
    }
}

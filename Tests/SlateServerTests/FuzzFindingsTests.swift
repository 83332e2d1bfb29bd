import Foundation
import SlateHTTP
import Testing

/// What the fuzz targets (fuzz/Targets, `scripts/fuzz`) found through the API. Each input
/// is also kept in the target's corpus (fuzz/corpus/router/found-*), so every fuzz run
/// replays it first.
@Suite struct FuzzFindingsTests {
    /// found-search-with-nul.http: text was bound up to its first NUL, so a NUL in `search`
    /// cut the full-text query inside its quotes; SQLite refused the unterminated string and
    /// the API answered 500 with the SQL in the body.
    @Test(arguments: ["%22woo%00dy", "%60%60%00%00%60", "woody%00"])
    func aSearchWithANULIsAnsweredNotAServerError(search: String) async throws {
        let api = try APIHarness()
        _ = try await api.send(.post, "/api/v1/tasks", json: ["title": "Woody's museum"])
        let reply = try await api.send(.get, "/api/v1/tasks?scope=all&status=all&search=\(search)")
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(reply.json["tasks"] is [[String: Any]])
    }
}

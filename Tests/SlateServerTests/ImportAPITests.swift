import Foundation
import SlateCore
import SlateHTTP
import Testing

/// `POST /api/v1/import` with input that once crashed or stalled the server.
@Suite struct ImportAPITests {
    @Test func aDeeplyNestedICalendarFileIsA422NamingTheLine() async throws {
        let api = try APIHarness()
        let file = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X\r\n", count: 50_000)
            + String(repeating: "END:X\r\n", count: 50_000) + "END:VCALENDAR\r\n"
        for target in ["/api/v1/import", "/api/v1/import?format=ics"] {
            let reply = try await api.send(.post, target, raw: file, headers: ["Content-Type": "text/calendar"])
            #expect(reply.status == 422, "\(target)")
            #expect(reply.errorMessage == "line 33: BEGIN:X is nested 33 components deep; at most 32 are allowed.")
        }
    }

    /// Imports wait for each other without holding the threads that serve requests: while
    /// several run, another account's requests are still answered, and every import lands.
    @Test func concurrentImportsAllLandAndAnotherAccountIsServedMeanwhile() async throws {
        let api = try APIHarness()
        let file = (0..<3_000).map { "Imported \($0) +Big\n" }.joined()
        let served = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<4 {
                group.addTask {
                    let reply = try await api.send(.post, "/api/v1/import?format=todotxt", raw: file,
                                                   headers: ["Content-Type": "text/plain"])
                    return (index, reply.status)
                }
            }
            group.addTask {
                let reply = try await api.send(.post, "/api/v1/tasks", as: "b", json: ["title": "Meanwhile"])
                return (-1, reply.status)
            }
            var statuses: [Int: Int] = [:]
            for try await (index, status) in group { statuses[index] = status }
            return statuses
        }
        #expect(served[-1] == 201, "the other account's write was answered")
        // The first import creates the list "Big"; the others find it.
        #expect((0..<4).allSatisfy { served[$0] == 200 }, "\(served)")
        let total = try await api.send(.get, "/api/v1/tasks?limit=1&status=all").json["total"] as? Int
        #expect(total == 12_000)
    }
}

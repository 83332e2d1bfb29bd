import Foundation
import SlateCore
import SlateDAV
import SlateHTTP
import SlateServer
@testable import SlateStore
import Testing

/// CalDAV's database work runs on the board's own threads, as the REST API's does: PUTs
/// stuck behind another connection's write lock stall neither CalDAV reads nor the API's
/// live streams (on a 2-core machine two blocked cooperative threads stall everything).
@Suite struct BlockedWriterDAVTests {
    @Test func davReadsAndHeartbeatsGoOnWhileAnotherConnectionHoldsTheWriteLock() async throws {
        let board = try BlockedBoard("slate-dav-blocked") { ModelConfiguration(path: $0, schemaVersion: SlateSchema.version, busyTimeout: 60) }
        defer { board.remove() }
        let accountID = board.account.id
        let api = SlateAPI(container: board.container, authenticate: { _ in accountID })
        let dav = CalDAVService(directory: AccountDirectory(container: board.container), authenticate: { _ in accountID }, logLevel: .off)
        let server = try board.serve(DAVMount(dav: dav.router, other: api.router))
        defer { Task { await server.shutdown() } }
        let port = server.port
        let stream = try await board.openStream(port: port)
        let holder = try await board.holdWriteLock()

        // More blocked PUTs than the machine has cores, each over a connection of its own.
        let writers = try (0..<(ProcessInfo.processInfo.activeProcessorCount * 3)).map { index in
            let client = try LoopbackClient(port: port, timeout: 40)
            let body = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Test//EN", "BEGIN:VTODO", "UID:queued-\(index)",
                        "DTSTAMP:20261201T090000Z", "SUMMARY:Queued \(index)", "END:VTODO", "END:VCALENDAR"].joined(separator: "\r\n") + "\r\n"
            try client.send("PUT /dav/calendars/ana/inbox/queued-\(index).ics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                + "Content-Type: text/calendar\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            return client
        }

        let propfind = try LoopbackClient(port: port, timeout: 20)
        try propfind.send("PROPFIND /dav/calendars/ana/inbox/ HTTP/1.1\r\nHost: x\r\nDepth: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        let listing = try await propfind.read { $0.contains("</d:multistatus>") }
        #expect(listing.hasPrefix("HTTP/1.1 207"), "\(listing.prefix(200))")
        #expect(listing.contains("<d:getetag>"), "the Inbox's task is listed")
        #expect(holder.isHolding, "the PROPFIND completed while the lock was held")

        let report = """
            <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-data/></d:prop>\
            <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>
            """
        let query = try LoopbackClient(port: port, timeout: 20)
        try query.send("REPORT /dav/calendars/ana/inbox/ HTTP/1.1\r\nHost: x\r\nDepth: 1\r\nConnection: close\r\n"
            + "Content-Length: \(report.utf8.count)\r\n\r\n" + report)
        let answer = try await query.read { $0.contains("</d:multistatus>") }
        #expect(answer.contains("SUMMARY:Already here"), "\(answer.prefix(300))")
        #expect(holder.isHolding, "the REPORT completed while the lock was held")

        let beats = try await stream.read { $0.components(separatedBy: ": keepalive").count > 3 }
        #expect(beats.components(separatedBy: ": keepalive").count > 3, "heartbeats continued while PUTs waited")
        #expect(holder.isHolding)

        holder.release()
        for writer in writers {
            let reply = try await writer.read { $0.contains("\r\n\r\n") }
            #expect(reply.hasPrefix("HTTP/1.1 201"), "the queued PUTs went through once the lock was free: \(reply.prefix(120))")
        }
        await server.shutdown()
    }
}

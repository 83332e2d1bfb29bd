import Foundation
import SlateCore
import Testing

/// A client stores its VTODO with its own DTSTAMP, LAST-MODIFIED and SEQUENCE. When the
/// task then changes in Slate, the object it is served back as is a newer version: a client
/// that settles conflicts by these lines must not take it for its own older copy.
@Suite("CalDAV: a change in Slate dates the client's object anew")
struct VersionLineTests {
    static let href = "/dav/calendars/ana/inbox/dated.ics"

    /// A VTODO as a client dated it on 1 December, with an alarm after its properties.
    static func stored(sequence: Bool = true, lastModified: Bool = true) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Test//EN", "BEGIN:VTODO", "UID:dated", "DTSTAMP:20261201T090000Z"]
            + (lastModified ? ["LAST-MODIFIED:20261201T090000Z"] : []) + (sequence ? ["SEQUENCE:3"] : [])
            + ["SUMMARY:Book the sound stage", "DUE:20261224T140000Z",
               "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM", "END:VTODO", "END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
    }

    /// `date` as iCalendar writes a UTC moment (whole seconds).
    static func basic(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    func lines(_ text: String) -> [String] { text.components(separatedBy: "\r\n") }

    /// The served copy's SEQUENCE.
    func sequence(_ text: String) throws -> Int {
        let line = try #require(lines(text).first { $0.hasPrefix("SEQUENCE:") })
        return try #require(Int(line.dropFirst("SEQUENCE:".count)))
    }

    @Test("DTSTAMP and LAST-MODIFIED become the task's change, SEQUENCE goes up with every change, and every other line stays")
    func anEditInSlateIsANewerVersion() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("dated.ics", Self.stored()).status == 201)
        let slate = dav.slate()
        let task = try #require(try slate.tasks().first)
        let edited = try slate.updateTask(task.id, TaskPatch(title: "Book the big sound stage"))
        let stamp = Self.basic(edited.modified)
        #expect(stamp > "20261201T090000Z")
        let served = try await dav.send(.get, Self.href).text
        let first = try sequence(served)
        #expect(first > 3)
        #expect(lines(served) == lines(Self.stored()
            .replacingOccurrences(of: "DTSTAMP:20261201T090000Z", with: "DTSTAMP:\(stamp)")
            .replacingOccurrences(of: "LAST-MODIFIED:20261201T090000Z", with: "LAST-MODIFIED:\(stamp)")
            .replacingOccurrences(of: "SEQUENCE:3", with: "SEQUENCE:\(first)")
            .replacingOccurrences(of: "SUMMARY:Book the sound stage", with: "SUMMARY:Book the big sound stage")))
        // Served again, the same bytes: the number comes from the stored copy and the changes since.
        #expect(try await dav.send(.get, Self.href).text == served)

        // Each further change in Slate is a version with a higher number.
        _ = try slate.setCompleted([task.id], true)
        let second = try sequence(try await dav.send(.get, Self.href).text)
        #expect(second > first)

        // The client stores that version; the next edit in Slate counts on from it.
        let current = try await dav.send(.get, Self.href)
        #expect(try await dav.put("dated.ics", current.text, headers: ["If-Match": current.headers["ETag"] ?? ""]).status == 204)
        #expect(try await dav.send(.get, Self.href).text == current.text)
        _ = try slate.updateTask(task.id, TaskPatch(isFlagged: true))
        #expect(try sequence(try await dav.send(.get, Self.href).text) > second)
    }

    @Test("A VTODO without LAST-MODIFIED gets one among its properties, before its alarm; none gets a SEQUENCE it did not have")
    func missingLinesAreAddedBeforeTheAlarm() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("dated.ics", Self.stored(sequence: false, lastModified: false)).status == 201)
        let slate = dav.slate()
        let task = try #require(try slate.tasks().first)
        let edited = try slate.updateTask(task.id, TaskPatch(tags: ["studio"]))
        let served = lines(try await dav.send(.get, Self.href).text)
        let stamp = Self.basic(edited.modified)
        #expect(served.contains("DTSTAMP:\(stamp)") && !served.contains("DTSTAMP:20261201T090000Z"))
        let modified = try #require(served.firstIndex(of: "LAST-MODIFIED:\(stamp)"))
        let alarm = try #require(served.firstIndex(of: "BEGIN:VALARM"))
        #expect(modified < alarm)
        #expect(try #require(served.firstIndex(of: "CATEGORIES:studio")) < alarm)
        #expect(!served.contains { $0.hasPrefix("SEQUENCE") })
    }

    @Test("A client's property after its alarm stays there; Slate's new lines still go before the alarm")
    func aPropertyAfterTheAlarm() async throws {
        let dav = try DAVHarness()
        let stored = Self.stored(sequence: false, lastModified: false)
            .replacingOccurrences(of: "END:VALARM\r\n", with: "END:VALARM\r\nX-AFTER-ALARM:yes\r\n")
        #expect(try await dav.put("dated.ics", stored).status == 201)
        let slate = dav.slate()
        _ = try slate.updateTask(try #require(try slate.tasks().first).id, TaskPatch(tags: ["studio"]))
        let served = lines(try await dav.send(.get, Self.href).text)
        let alarm = try #require(served.firstIndex(of: "BEGIN:VALARM"))
        #expect(try #require(served.firstIndex(of: "CATEGORIES:studio")) < alarm)
        #expect(try #require(served.firstIndex { $0.hasPrefix("LAST-MODIFIED:") }) < alarm)
        #expect(try #require(served.firstIndex(of: "X-AFTER-ALARM:yes")) > alarm)
    }

    @Test("An object Slate has not changed is served as the client stored it, its dates included")
    func anUnchangedObjectKeepsItsDates() async throws {
        let dav = try DAVHarness()
        #expect(try await dav.put("dated.ics", Self.stored()).status == 201)
        #expect(try await dav.send(.get, Self.href).text == Self.stored())
    }
}

/// An error with no RFC precondition (a 404) says what was wrong without a made-up element.
@Suite("CalDAV: error bodies")
struct DAVErrorBodyTests {
    @Test func aMissingObjectIsADAVErrorWithItsSentenceOnly() async throws {
        let dav = try DAVHarness()
        let missing = try await dav.send(.get, "/dav/calendars/ana/inbox/nothing-here.ics")
        #expect(missing.status == 404)
        #expect(missing.text.contains("<d:error") && missing.text.contains("<d:responsedescription>"))
        #expect(!missing.text.contains("error-description"), "\(missing.text)")
        // A failed precondition still names it.
        let refused = try await dav.put("bad.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        #expect(refused.status == 400 || refused.status == 403)
        #expect(refused.text.contains("<c:valid-calendar-data/>") || refused.text.contains("valid-calendar"), "\(refused.text)")
    }
}

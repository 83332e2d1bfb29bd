import Testing

@testable import SlateDAV

/// Reading request paths under `/dav/` (split on the `/` byte, each segment percent-decoded).
@Suite("CalDAV: what a request path names")
struct DAVTargetTests {
    @Test func pathsNameTheRootHomesCollectionsAndObjects() {
        #expect(DAVTarget.parse("/dav/", account: "ana") == .root)
        #expect(DAVTarget.parse("/dav/principals/", account: "ana") == .principals)
        #expect(DAVTarget.parse("/dav/principals/ana/", account: "ana") == .principal)
        #expect(DAVTarget.parse("/dav/calendars/ana/", account: "ana") == .home)
        #expect(DAVTarget.parse("/dav/calendars/ana/inbox/", account: "ana") == .collection("inbox"))
        #expect(DAVTarget.parse("//dav//calendars/ana/inbox//a.ics", account: "ana") == .object(collection: "inbox", name: "a.ics"))
    }

    @Test func segmentsArePercentDecodedAndMayHoldAnyCharacter() {
        #expect(DAVTarget.parse("/dav/calendars/ana/Caf%C3%A9%20%F0%9F%8E%AC/x%2Fy.ics", account: "ana")
            == .object(collection: "Café 🎬", name: "x/y.ics"))
        #expect(DAVTarget.parse("/dav/calendars/ana/Café 🎬/ü.ics", account: "ana") == .object(collection: "Café 🎬", name: "ü.ics"))
        #expect(DAVTarget.parse("/dav/calendars/J%C3%B6rg/", account: "Jörg") == .home)
    }

    /// The fixed segments and the account are compared on their bytes when they are plain
    /// ASCII, and as text otherwise: the same answers either way.
    @Test func fixedSegmentsAndTheAccountReadTheSameEncodedOrComposedDifferently() {
        #expect(DAVTarget.parse("/d%61v/c%61lendars/%61na/inbox/", account: "ana") == .collection("inbox"))
        #expect(DAVTarget.parse("/dav/principals/J\u{6F}\u{308}rg/", account: "J\u{F6}rg") == .principal)
        #expect(DAVTarget.parse("/dav/calendars/Ana/", account: "ana") == nil)
        #expect(DAVTarget.parse("/dav/calendars/an/", account: "ana") == nil)
        #expect(DAVTarget.parse("/dav/calendar/ana/", account: "ana") == nil)
        #expect(DAVTarget.parse("/dav/principals/ana/x/", account: "ana") == nil)
    }

    /// A multiget's href under its collection's path is read by its last segment alone: the
    /// object `parse` reads from the whole path, or nil where the shortcut does not apply.
    @Test(arguments: ["/dav/calendars/ana/inbox/", "/dav/calendars/ana/Caf%C3%A9/"])
    func anObjectUnderItsCollectionReadsAsTheWholePathDoes(directory: String) throws {
        guard case .collection(let collection)? = DAVTarget.parse(directory, account: "ana") else {
            Issue.record("\(directory) is not a collection")
            return
        }
        for name in ["a.ics", "x%2Fy.ics", "%C3%BC.ics", "Caf%C3%A9 🎬.ics", "-"] {
            let path = directory + name
            #expect(DAVTarget.segment(of: path, under: directory).map { DAVTarget.object(collection: collection, name: $0) }
                == DAVTarget.parse(path, account: "ana"))
        }
        for path in [directory, directory + "a/b.ics", directory + "a.ics/", "/dav/calendars/ana/other/a.ics", "/dav/calendars/ana/inbo"] {
            #expect(DAVTarget.segment(of: path, under: directory) == nil)
        }
    }

    @Test func anotherAccountOrAnUnknownPathNamesNothing() {
        #expect(DAVTarget.parse("/dav/calendars/ben/inbox/", account: "ana") == nil)
        #expect(DAVTarget.parse("/dav/principals/ben/", account: "ana") == nil)
        #expect(DAVTarget.parse("/api/tasks", account: "ana") == nil)
        #expect(DAVTarget.parse("/dav/calendars/ana/inbox/a.ics/extra", account: "ana") == nil)
        #expect(DAVTarget.parse("/dav/other/ana/", account: "ana") == nil)
    }
}

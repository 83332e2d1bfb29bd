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

    @Test func anotherAccountOrAnUnknownPathNamesNothing() {
        #expect(DAVTarget.parse("/dav/calendars/ben/inbox/", account: "ana") == nil)
        #expect(DAVTarget.parse("/dav/principals/ben/", account: "ana") == nil)
        #expect(DAVTarget.parse("/api/tasks", account: "ana") == nil)
        #expect(DAVTarget.parse("/dav/calendars/ana/inbox/a.ics/extra", account: "ana") == nil)
        #expect(DAVTarget.parse("/dav/other/ana/", account: "ana") == nil)
    }
}

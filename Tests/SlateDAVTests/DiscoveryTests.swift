import Foundation
import SlateCore
import Testing

@Suite("CalDAV discovery and PROPFIND")
struct DiscoveryTests {
    @Test("/.well-known/caldav points at the DAV root")
    func wellKnown() async throws {
        let dav = try DAVHarness()
        let reply = try await dav.send(.get, "/.well-known/caldav", as: nil)
        #expect(reply.status == 301)
        #expect(reply.headers["Location"] == "/dav/")
        let propfind = try await dav.send("PROPFIND", "/.well-known/caldav", as: nil, headers: ["Depth": "0"])
        #expect(propfind.status == 301)
    }

    @Test("OPTIONS names the DAV classes and calendar-access everywhere, the principal included")
    func options() async throws {
        let dav = try DAVHarness()
        for path in ["/dav/", "/dav/principals/ana/", "/dav/calendars/ana/inbox/"] {
            let reply = try await dav.send(.options, path, as: nil)
            #expect(reply.status == 200)
            #expect(reply.headers["DAV"]?.contains("calendar-access") == true)
            #expect(reply.headers["DAV"]?.hasPrefix("1, 3") == true)
        }
    }

    @Test("Without credentials: 401 asking for Basic")
    func unauthorized() async throws {
        let dav = try DAVHarness()
        let reply = try await dav.propfind("/dav/", ["d:current-user-principal"], as: "nobody")
        #expect(reply.status == 401)
        #expect(reply.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
    }

    @Test("The root names the principal; the principal names the calendar home")
    func principalAndHome() async throws {
        let dav = try DAVHarness()
        let root = try await dav.propfind("/dav/", ["d:current-user-principal"])
        #expect(root.status == 207)
        #expect(root.text.contains("<d:current-user-principal><d:href>/dav/principals/ana/</d:href></d:current-user-principal>"))
        let principal = try await dav.propfind("/dav/principals/ana/", ["c:calendar-home-set", "d:principal-URL", "d:resourcetype"])
        #expect(principal.text.contains("<c:calendar-home-set><d:href>/dav/calendars/ana/</d:href></c:calendar-home-set>"))
        #expect(principal.text.contains("<d:principal/>"))
        #expect(principal.headers["Content-Type"]?.hasPrefix("application/xml") == true)
    }

    @Test("The home lists the Inbox and every list as VTODO calendars with their properties")
    func homeListsCollections() async throws {
        let dav = try DAVHarness()
        let list = try dav.slate().createList(name: "Story & Sound", color: "#FF6B6B")
        let reply = try await dav.propfind("/dav/calendars/ana/", depth: "1", [
            "d:resourcetype", "d:displayname", "c:supported-calendar-component-set", "cs:getctag", "d:sync-token",
            "a:calendar-color", "a:calendar-order", "d:current-user-privilege-set", "d:owner", "d:supported-report-set",
        ])
        #expect(reply.status == 207)
        let text = reply.text
        #expect(text.contains("<d:href>/dav/calendars/ana/inbox/</d:href>"))
        #expect(text.contains("<d:href>/dav/calendars/ana/\(list.id.uuidString.lowercased())/</d:href>"))
        #expect(text.contains("<d:displayname>Story &amp; Sound</d:displayname>"))
        #expect(text.occurrences(of: "<c:comp name=\"VTODO\"/>") == 2)
        #expect(text.contains("<a:calendar-color>#FF6B6B</a:calendar-color>"))
        #expect(text.contains("<c:calendar-multiget/>") && text.contains("<d:sync-collection/>"))
        #expect(text.contains("<d:privilege><d:write/></d:privilege>"))
        #expect(text.contains("<cs:getctag>") && text.contains("<d:sync-token>urn:x-slate:sync:"))
    }

    @Test("Unknown properties come back in a 404 propstat, never dropped")
    func unknownProperties() async throws {
        let dav = try DAVHarness()
        let reply = try await dav.propfind("/dav/calendars/ana/inbox/", ["d:displayname", "x:color-of-mood", "c:calendar-timezone"])
        #expect(reply.text.contains("<d:displayname>Inbox</d:displayname>"))
        #expect(reply.text.contains("<x:color-of-mood xmlns:x=\"urn:example:unknown\"/>"))
        #expect(reply.text.contains("<c:calendar-timezone/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status>"))
    }

    @Test("Depth: infinity is refused with propfind-finite-depth")
    func infiniteDepth() async throws {
        let dav = try DAVHarness()
        let reply = try await dav.propfind("/dav/calendars/ana/", depth: "infinity", ["d:displayname"])
        #expect(reply.status == 403)
        #expect(reply.text.contains("propfind-finite-depth"))
    }

    @Test("Depth 1 on a collection lists each task with a quoted ETag and a text/calendar type")
    func collectionListing() async throws {
        let dav = try DAVHarness()
        let task = try dav.slate().addTask(TaskDraft(title: "Storyboard"))
        let reply = try await dav.propfind("/dav/calendars/ana/inbox/", depth: "1", ["d:getetag", "d:getcontenttype", "d:resourcetype"])
        let revision = try dav.slate().task(id: task.id).revision
        #expect(reply.text.contains("<d:href>/dav/calendars/ana/inbox/\(task.id.uuidString).ics</d:href>"))
        #expect(reply.text.contains("<d:getetag>&quot;\(revision)&quot;</d:getetag>"))
        #expect(reply.text.contains("<d:getcontenttype>text/calendar; charset=utf-8; component=VTODO</d:getcontenttype>"))
    }

    @Test("XML with a DTD or an entity is refused without expanding anything; depth is bounded")
    func hostileXML() async throws {
        let dav = try DAVHarness()
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
            <d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&lol2;</d:displayname></d:prop></d:propfind>
            """
        let refused = try await dav.send("PROPFIND", "/dav/", headers: ["Depth": "0"], body: laughs)
        #expect(refused.status == 400)
        #expect(refused.text.contains("Document type declarations"))
        let entity = try await dav.send("PROPFIND", "/dav/", headers: ["Depth": "0"],
                                        body: "<d:propfind xmlns:d=\"DAV:\"><d:prop><d:displayname>&xxe;</d:displayname></d:prop></d:propfind>")
        #expect(entity.status == 400)
        let deep = String(repeating: "<d:a xmlns:d=\"DAV:\">", count: 40) + String(repeating: "</d:a>", count: 40)
        let nested = try await dav.send("PROPFIND", "/dav/", headers: ["Depth": "0"], body: deep)
        #expect(nested.status == 400)
        #expect(nested.text.contains("deeper than"))
        // Declarations are bounded too: each element that declares one copies its scope.
        let declarations = (0..<300).map { " xmlns:p\($0)=\"urn:x:\($0)\"" }.joined()
        let many = try await dav.send("PROPFIND", "/dav/", headers: ["Depth": "0"],
                                      body: "<d:propfind xmlns:d=\"DAV:\"\(declarations)><d:prop><d:displayname/></d:prop></d:propfind>")
        #expect(many.status == 400)
        #expect(many.text.contains("more than 64 attributes"), "\(many.text)")
        let spread = (0..<300).map { "<d:prop xmlns:p\($0)=\"urn:x:\($0)\"><d:displayname/></d:prop>" }.joined()
        let scattered = try await dav.send("PROPFIND", "/dav/", headers: ["Depth": "0"],
                                           body: "<d:propfind xmlns:d=\"DAV:\">\(spread)</d:propfind>")
        #expect(scattered.status == 400)
        #expect(scattered.text.contains("more than 256 namespaces"), "\(scattered.text)")
    }
}

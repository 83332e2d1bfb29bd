import Foundation
import Testing

@testable import SlateDAV

/// A listing of ETags is written from one `TagResponse`: it must write exactly what the
/// property-by-property path writes, and refuse to stand for values it cannot rebuild.
@Suite struct TagResponseTests {
    static let etag = PropertyName(Namespace.dav, "getetag")
    static let type = PropertyName(Namespace.dav, "getcontenttype")
    static let kind = PropertyName(Namespace.dav, "resourcetype")
    static let color = PropertyName(Namespace.apple, "calendar-color")
    static let foreign = PropertyName("urn:example", "tag")

    /// What DAVContext answers for the tag properties, plus two more shapes: a namespace
    /// without a prefix, and a value holding the tag twice.
    static func found(_ names: [PropertyName]) -> (String) -> [(PropertyName, String)] {
        { tag in
            names.map { name in
                switch name {
                case etag: (name, DAVXML.escape(tag))
                case type: (name, "text/calendar; charset=utf-8; component=VTODO")
                case kind: (name, "")
                case foreign: (name, DAVXML.escape(tag) + "/" + DAVXML.escape(tag))
                default: (name, "#FF0000")
                }
            }
        }
    }

    func written(_ prefix: String, _ ending: String, _ tag: String, _ names: [PropertyName]) throws
        -> (template: [UInt8], direct: [UInt8])
    {
        let response = try #require(TagResponse(hrefPrefix: prefix, sample: ("a.ics", "\"1\""), found: Self.found(names)))
        var template = MultiStatus.responses()
        template.add(response, hrefEnding: ending, tag: tag)
        var direct = MultiStatus.responses()
        direct.add(href: prefix + ending, found: Self.found(names)(tag), missing: [])
        return (template.bytes, direct.bytes)
    }

    @Test func writesTheSameBytesAsPropertyByProperty() throws {
        let nameSets: [[PropertyName]] = [
            [Self.etag], [Self.etag, Self.type, Self.kind], [Self.kind, Self.etag], [Self.type],
            [Self.color, Self.etag], [Self.foreign, Self.etag], [],
        ]
        let tags = ["\"1\"", "\"9876543210\"", "W/\"a&b<c>\"", "", "\r\u{1}x"]
        let hrefs = [("/dav/calendars/ana/inbox/", "a%20b.ics"), ("/dav/<&>/", "x&y\".ics"), ("", ""), ("/dav/", "")]
        for names in nameSets {
            for tag in tags {
                for (prefix, ending) in hrefs {
                    let (template, direct) = try written(prefix, ending, tag, names)
                    #expect(template == direct, "\(names.map(\.name)) \(tag.debugDescription) \(prefix)\(ending)")
                }
            }
        }
        let (template, _) = try written("/dav/", "x.ics", "\"42\"", [Self.etag])
        #expect(String(decoding: template, as: UTF8.self).contains("<d:href>/dav/x.ics</d:href>"))
        #expect(String(decoding: template, as: UTF8.self).contains("<d:getetag>&quot;42&quot;</d:getetag>"))
    }

    @Test func aValueThatChangesItsTagIsRefused() {
        let changed: (String) -> [(PropertyName, String)] = { tag in [(Self.etag, DAVXML.escape(tag.lowercased()))] }
        #expect(TagResponse(hrefPrefix: "/dav/", sample: ("a.ics", "\"ABC\""), found: changed) == nil)
        let fixedLength: (String) -> [(PropertyName, String)] = { tag in [(Self.etag, String(tag.count))] }
        #expect(TagResponse(hrefPrefix: "/dav/", sample: ("a.ics", "\"1\""), found: fixedLength) == nil)
    }
}

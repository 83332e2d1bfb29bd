import Foundation
import Testing

@testable import SlateDAV

/// An element's name is read on its bytes into a namespace and a local name: the same parts
/// `split(separator: ":", maxSplits: 1)` gives, odd names included.
@Suite struct XMLNameTests {
    func element(_ name: String) throws -> (namespace: String, name: String) {
        let xml = "<?xml version=\"1.0\"?><\(name) xmlns=\"urn:default\" xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\"/>"
        let root = try XMLReader.parse(Data(xml.utf8))
        return (root.namespace, root.name)
    }

    /// What the names read as when split on their first colon as the standard library splits.
    func expected(_ name: String) -> (namespace: String, name: String) {
        let scope = ["": "urn:default", "d": "DAV:", "c": "urn:ietf:params:xml:ns:caldav"]
        let parts = name.split(separator: ":", maxSplits: 1)
        return parts.count == 2 ? (scope[String(parts[0])] ?? "?", String(parts[1])) : ("urn:default", name)
    }

    @Test(arguments: ["d:href", "c:calendar-multiget", "href", "d:a:b", "d::b", "d:", ":d", "::d", ":d:href", ":d:", "d::", "ü:x"])
    func aNameReadsAsItsPrefixAndLocalPart(name: String) throws {
        if name == "ü:x" {
            #expect(throws: XMLReadError.self) { try element(name) }
            return
        }
        let read = try element(name)
        #expect(read.namespace == expected(name).namespace && read.name == expected(name).name)
    }

    /// A name read again in the same scope is the one read before; the same bytes under
    /// another declaration of their prefix are not.
    @Test func theSameNameResolvesByItsOwnScope() throws {
        let xml = "<r xmlns:x=\"urn:0\"><x:e/><x:e/><a xmlns:x=\"urn:1\"><x:e/><x:e/></a><b xmlns:x=\"urn:2\"><x:e/></b><x:e/></r>"
        let root = try XMLReader.parse(Data(xml.utf8))
        let names = { (element: XMLElement) in element.children.map { "\($0.namespace) \($0.name)" } }
        #expect(names(root) == ["urn:0 e", "urn:0 e", " a", " b", "urn:0 e"])
        #expect(names(root.children[2]) == ["urn:1 e", "urn:1 e"])
        #expect(names(root.children[3]) == ["urn:2 e"])
    }

    /// The body's UTF-8 is checked once, whole: a bad byte anywhere — a name, a text, an
    /// attribute, a comment — refuses it with the same message.
    @Test(arguments: [[0x3C, 0xFF, 0x2F, 0x3E], Array("<a>x".utf8) + [0xC3] + Array("</a>".utf8),
                      Array("<a b=\"".utf8) + [0xE2, 0x82] + Array("\"/>".utf8), Array("<!--".utf8) + [0x80] + Array("--><a/>".utf8)])
    func aBodyThatIsNotUTF8IsRefused(bytes: [UInt8]) {
        #expect {
            try XMLReader.parse(Data(bytes))
        } throws: { error in
            "\(error)" == "The XML is not UTF-8."
        }
    }

    @Test func anUndeclaredPrefixIsRefusedByName() throws {
        #expect {
            try element("x:href")
        } throws: { error in
            "\(error)".contains("The prefix 'x' is not declared")
        }
    }

    /// A closing tag closes only the very name its element opened with, byte for byte.
    @Test(arguments: [
        ("<d:href xmlns:d=\"DAV:\">x</d:href>", nil),
        ("<d:href xmlns:d=\"DAV:\">x</d:href >", nil),
        ("<héllo>x</héllo>", nil),
        ("<d:href xmlns:d=\"DAV:\">x</d:hreg>", "</d:hreg> does not close <d:href>."),
        ("<d:href xmlns:d=\"DAV:\">x</d:hre>", "</d:hre> does not close <d:href>."),
        ("<d:href xmlns:d=\"DAV:\">x</href>", "</href> does not close <d:href>."),
        ("<d:href xmlns:d=\"DAV:\">x</>", "</> does not close <d:href>."),
        ("<héllo>x</hèllo>", "</hèllo> does not close <héllo>."),
        ("<a><b></a></b>", "</a> does not close <b>."),
    ] as [(String, String?)])
    func aClosingTagMustNameItsElement(xml: String, refusal: String?) throws {
        if let refusal {
            #expect {
                try XMLReader.parse(Data(xml.utf8))
            } throws: { error in
                "\(error)" == refusal
            }
        } else {
            #expect(try XMLReader.parse(Data(xml.utf8)).text == "x")
        }
    }
}

import Testing

@testable import SlateHTTP

/// `trimmingASCII(where:)` and `trimmingHTTPWhitespace`: what a header value is read as.
@Suite struct TrimmedTextTests {
    @Test func spacesAndTabsAtEitherEndGoAndNothingElse() {
        #expect(" \t 42 \t".trimmingHTTPWhitespace == "42")
        #expect("\"a b\"".trimmingHTTPWhitespace == "\"a b\"")
        #expect("  in  the  middle  ".trimmingHTTPWhitespace == "in  the  middle")
        // HTTP's optional white space is spaces and tabs: a line feed or a no-break space stays.
        #expect("\n7\n".trimmingHTTPWhitespace == "\n7\n")
        #expect("\u{A0}7".trimmingHTTPWhitespace == "\u{A0}7")
    }

    @Test func allWhiteSpaceOrNothingIsEmpty() {
        #expect("".trimmingHTTPWhitespace == "")
        #expect(" \t \t".trimmingHTTPWhitespace == "")
    }

    @Test func textAroundCharactersOfManyBytesIsCutOnlyAtTheTrimmedBytes() {
        #expect("\t Zoë 🎬 ".trimmingHTTPWhitespace == "Zoë 🎬")
        #expect("xx🎬xx".trimmingASCII { $0 == UInt8(ascii: "x") } == "🎬")
    }

    @Test func aSubstringIsTrimmedWithinItsOwnBounds() {
        let header = "Basic  dXNlcjpwdw== \t"
        #expect(header.dropFirst(6).trimmingHTTPWhitespace == "dXNlcjpwdw==")
        #expect("5, 5 ,\t5".split(separator: ",").map(\.trimmingHTTPWhitespace) == ["5", "5", "5"])
    }
}

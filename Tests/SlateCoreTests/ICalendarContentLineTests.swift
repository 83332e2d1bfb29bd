import Foundation
@testable import SlateCore
import Testing

/// `ICalendarText.contentLine` splits a line into its name, parameters and value. It reads
/// bytes; these lines hold the cases where bytes and characters could part ways: multi-byte
/// characters beside delimiters, delimiters inside quotes, white space around the name.
@Suite struct ICalendarContentLineTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let line: String
        let name: String
        let parameters: [String]
        let value: String
        var testDescription: String { line }
    }

    static let lines: [Case] = [
        Case(line: "SUMMARY:Call the printer", name: "SUMMARY", parameters: [], value: "Call the printer"),
        Case(line: "summary:lower-case name", name: "SUMMARY", parameters: [], value: "lower-case name"),
        Case(line: "X-APPLE-SORT-ORDER:740323437", name: "X-APPLE-SORT-ORDER", parameters: [], value: "740323437"),
        Case(line: "SUMMARY:Café: déjà vu; a, b", name: "SUMMARY", parameters: [], value: "Café: déjà vu; a, b"),
        Case(line: "SUMMARY:", name: "SUMMARY", parameters: [], value: ""),
        Case(line: " \tSUMMARY\t :spaced name", name: "SUMMARY", parameters: [], value: "spaced name"),
        Case(line: "\u{00A0}SUMMARY\u{3000}:no-break and ideographic spaces", name: "SUMMARY", parameters: [],
             value: "no-break and ideographic spaces"),
        Case(line: "DUE;TZID=Europe/Berlin:20261224T170000", name: "DUE", parameters: ["TZID=Europe/Berlin"], value: "20261224T170000"),
        Case(line: "DUE;value=date:20261224", name: "DUE", parameters: ["VALUE=date"], value: "20261224"),
        Case(line: "ATTENDEE;CN=\"Müller; Jörg: Ünïcode, ✓\";ROLE=CHAIR:mailto:j@example.org",
             name: "ATTENDEE", parameters: ["CN=Müller; Jörg: Ünïcode, ✓", "ROLE=CHAIR"], value: "mailto:j@example.org"),
        Case(line: "CATEGORIES;X-LIST=a,\"b,c\",dé:x", name: "CATEGORIES", parameters: ["X-LIST=a,b,c,dé"], value: "x"),
        Case(line: "X-FLAG;X-EMPTY=;X-BARE:v", name: "X-FLAG", parameters: ["X-EMPTY=", "X-BARE="], value: "v"),
        Case(line: "X-MOZ-LASTACK;X-Ü=☃:20261201T090000Z", name: "X-MOZ-LASTACK", parameters: ["X-Ü=☃"], value: "20261201T090000Z"),
        Case(line: "DESCRIPTION:🎬 Scene 12\\, take 3\\nthen ✂️", name: "DESCRIPTION", parameters: [], value: "🎬 Scene 12\\, take 3\\nthen ✂️"),
    ]

    @Test(arguments: lines)
    func splitsNameParametersAndValue(_ example: Case) throws {
        let property = try ICalendarText.contentLine(Array(example.line.utf8), text: example.line, line: 7)
        #expect(property.name == example.name)
        #expect(property.parameters.map { "\($0.name)=\($0.value)" } == example.parameters)
        #expect(property.value == example.value)
        #expect(property.line == 7)
    }

    @Test(arguments: [
        ("no colon at all", "is not an iCalendar line"),
        ("SUMMARY;TZID=x", "is not an iCalendar line"),
        (":value without a name", "is not an iCalendar line"),
        ("SUM MARY:space inside the name", "is not an iCalendar line"),
        ("SÜMMARY:non-ASCII name", "is not an iCalendar line"),
        ("ATTENDEE;CN=\"never closed:mailto:x", "ATTENDEE has a parameter value with no closing quote."),
    ])
    func refusesWhatIsNotAContentLine(_ line: String, _ message: String) {
        #expect {
            try ICalendarText.contentLine(Array(line.utf8), text: line, line: 3)
        } throws: { error in
            "\(error)".contains(message) && "\(error)".contains("3")
        }
    }

    @Test func aWholeFileSkipsBlankLinesAndReadsEachProperty() throws {
        let file = "BEGIN:VCALENDAR\r\n\r\nBEGIN:VTODO\r\nSUMMARY;LANGUAGE=de:Drehbuch überarbeiten\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let roots = try ICalendarText.parse(Data(file.utf8))
        let todo = try #require(roots.first?.components.first)
        #expect(todo.name == "VTODO")
        #expect(todo.properties.map(\.value) == ["Drehbuch überarbeiten"])
        #expect(todo.properties.first?.parameters.first?.value == "de")
    }
}

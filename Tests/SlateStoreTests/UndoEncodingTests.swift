import Foundation
import Testing

@testable import SlateStore

/// Undo entries are written without `Codable` but read with it: what is written must read
/// back as exactly the entry `JSONEncoder` would have written.
@Suite struct UndoEncodingTests {
    private func sorted(_ entry: UndoLog.Entry) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(entry)
    }

    @Test func everyKindOfValueReadsBackAsWritten() throws {
        let awkward = "quote \" backslash \\ newline \n tab \t bell \u{07} nul \u{00} é 🎬 \u{2028}"
        let row = Row(["id": .text("A-1"), "title": .text(awkward), "rank": .integer(-42), "big": .integer(.max),
                       "score": .real(0.1), "tiny": .real(1e-300), "whole": .real(3), "none": .null,
                       "bytes": .blob(Data([0, 1, 2, 255, 254])), "empty": .blob(Data())])
        let entries = [
            UndoLog.Entry(label: "Edit “\(awkward)”", images: [RowImage(table: "items", id: "A-1", before: row, after: row)]),
            UndoLog.Entry(label: nil, images: [RowImage(table: "items", id: "B", before: nil, after: row),
                                               RowImage(table: "projects", id: "C", before: row, after: nil)]),
            UndoLog.Entry(label: "Import", images: [], created: ["items": "a,b,c", "projects": "d"],
                          createdDigests: ["items": "1,2,3"], createdRevision: 17),
        ]
        for entry in entries {
            let read = try JSONDecoder().decode(UndoLog.Entry.self, from: try entry.encodedJSON())
            #expect(try sorted(read) == (try sorted(entry)))
        }
    }

    @Test func aValueJSONCannotHoldFailsAsItDidWithTheEncoder() {
        let entry = UndoLog.Entry(label: nil, images: [RowImage(table: "items", id: "x", before: Row(["score": .real(.nan)]), after: nil)])
        #expect(throws: EncodingError.self) { try entry.encodedJSON() }
    }
}

import Foundation
import SlateCore
import Testing

@Suite struct TransferDetectionTests {
    @Test(arguments: [
        (#"{"format":"slate","version":1,"lists":[],"tasks":[]}"#, TransferFormat.json),
        ("\u{FEFF}\n  {\"version\":1,\n\"format\": \"slate\"}", .json),
        ("[]", .taskwarrior),
        (" \n[{\"description\":\"x\"}]", .taskwarrior),
        (#"{"description":"x","status":"pending"}"#, .taskwarrior),
        ("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", .ics),
        ("\u{FEFF}\r\n begin:vcalendar\nEND:VCALENDAR", .ics),
        ("(A) Call Mom +Family", .todotxt),
        ("[draft] Write the pitch\n{braces} too", .todotxt),
        ("[{\"description\":", .taskwarrior),
        ("x 2026-11-28 Pay rent", .todotxt),
        ("", .todotxt),
    ])
    func detectsTheFormatFromTheContent(text: String, expected: TransferFormat) {
        #expect(TransferFormat.detect(Data(text.utf8)) == expected)
    }

    @Test(arguments: TransferFormat.allCases)
    func anEmptyBoardExportsAndImportsAsNothing(format: TransferFormat) throws {
        let (slate, _) = try makeSlate()
        let file = try slate.export(format)
        #expect(TransferFormat.detect(file) == format || format == .todotxt && file.isEmpty)
        #expect(try slate.importData(file, format: nil) == ImportSummary())
        #expect(try slate.count() == 0 && slate.lists().isEmpty)
    }

    @Test(arguments: TransferFormat.allCases)
    func everyFormatDetectsItsOwnExport(format: TransferFormat) throws {
        let (slate, clock) = try makeSlate()
        _ = try TransferBoard(slate, clock)
        #expect(TransferFormat.detect(try slate.export(format)) == format)
    }
}

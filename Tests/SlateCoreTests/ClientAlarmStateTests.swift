import Foundation
import Testing

@testable import SlateCore

/// Thunderbird's alarm state read from stored bytes, and the quick test that lets every
/// other client's bytes go unparsed.
@Suite struct ClientAlarmStateTests {
    let calendar = TimeZones.calendar(in: TimeZone(identifier: "UTC")!)

    func todo(_ lines: [String], ending: String = "\r\n") -> Data {
        let body = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:a"] + lines + ["END:VTODO", "END:VCALENDAR"]
        return Data((body.joined(separator: ending) + ending).utf8)
    }

    @Test func theStateIsReadWhereverTheNameIsFoldedAndInAnyCase() throws {
        let acknowledged = try #require(BasicDate.parseMoment("20261129T094600Z", local: calendar))
        let forms = [
            todo(["X-MOZ-LASTACK:20261129T094600Z"]),
            todo(["x-moz-lastack:20261129T094600Z"]),
            todo(["X-MO\r\n Z-LASTACK:20261129T094600Z"]),
            todo(["X\r\n\t-MOZ-LASTACK:20261129T094600Z"]),
            todo(["X-M\n OZ-LASTACK:20261129T094600Z"], ending: "\n"),
            todo(["X-X-MOZ-LASTACK:1", "X-MOZ-LASTACK:20261129T094600Z"]),
        ]
        for data in forms {
            #expect(ClientAlarmState.mentionsMozillaProperty(data))
            #expect(ClientAlarmState.read(data, calendar: calendar)?.lastAcknowledged == acknowledged)
        }
    }

    @Test func bytesWithoutThunderbirdsPropertiesHoldNoState() {
        let forms = [
            todo(["SUMMARY:Call the printer", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM"]),
            todo(["X-MO Z-LASTACK:20261129T094600Z"]),   // a space inside is no fold
            todo(["X-MOZ\r\nLASTACK:20261129T094600Z"]),  // a line break without a space is a new line
            todo(["SUMMARY:X-MO", "Z-LASTACK:20261129T094600Z"]),
            Data(),
        ]
        for data in forms {
            #expect(!ClientAlarmState.mentionsMozillaProperty(data) || ClientAlarmState.read(data, calendar: calendar) == nil)
        }
        #expect(!ClientAlarmState.mentionsMozillaProperty(forms[0]))
        #expect(!ClientAlarmState.mentionsMozillaProperty(forms[3]))
    }
}

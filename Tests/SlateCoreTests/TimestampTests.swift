import Foundation
import Testing

@testable import SlateCore

@Suite struct TimestampTests {
    /// The arithmetic gives what Foundation's calendar gives, across the years it covers
    /// (leap days, centuries, the edges of 1583 and 9999) and on both sides of 1970.
    @Test func formatAgreesWithTheCalendar() {
        var seconds: [Int64] = [
            0, -1, 1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 4_107_542_400, 1_795_943_700,
            -12_212_553_600, -12_212_553_599, 253_402_300_799, -2_208_988_800, 946_684_799,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 { seconds.append(Int64.random(in: -12_212_553_600...253_402_300_799, using: &generator)) }
        for second in seconds {
            for fraction: Int64 in [0, 7, 999] {
                let date = Date(timeIntervalSince1970: Double(second) + Double(fraction) / 1000)
                let fractionRead = Timestamp.milliseconds(date) - second * 1000
                #expect(Timestamp.format(date) == Timestamp.formatWithCalendar(seconds: second, fraction: fractionRead), "\(second)")
            }
        }
    }

    @Test func datesOutsideTheFourDigitGregorianYearsUseTheCalendar() {
        #expect(Timestamp.format(Date(timeIntervalSince1970: -13_000_000_000)) == Timestamp.formatWithCalendar(seconds: -13_000_000_000, fraction: 0))
        #expect(Timestamp.format(Date(timeIntervalSince1970: 0.25)) == "1970-01-01T00:00:00.250Z")
    }

    /// Local days by arithmetic agree with the calendar's, in zones with and without
    /// daylight saving, half-hour offsets and a skipped day (Apia, 2011-12-30).
    @Test(arguments: ["UTC", "Europe/Paris", "Pacific/Kiritimati", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Apia", "America/St_Johns"])
    func formatDayAgreesWithTheCalendar(zone: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        var seconds: [Double] = [0, -0.5, 1_795_943_700, 1_325_239_200, 1_325_203_200.999, 951_782_400, 1_711_846_800, 1_711_846_799.5]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 { seconds.append(Double.random(in: -12_000_000_000...253_000_000_000, using: &generator)) }
        for second in seconds {
            let date = Date(timeIntervalSince1970: second)
            #expect(Timestamp.formatDay(date, calendar: calendar) == Timestamp.formatDayWithCalendar(date, calendar: calendar), "\(second)")
        }
    }

    @Test(arguments: ["UTC", "Europe/Paris", "Pacific/Kiritimati", "America/Los_Angeles"])
    func formatDayIsTheCalendarDayZeroPadded(zone: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        for date in [Date(timeIntervalSince1970: 1_795_943_700), Date(timeIntervalSince1970: -60_000_000_000), Date(timeIntervalSince1970: 0)] {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            #expect(Timestamp.formatDay(date, calendar: calendar) == String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!))
        }
    }
}

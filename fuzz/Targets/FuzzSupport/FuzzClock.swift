import Foundation

/// The fixed moment and calendars the targets parse against, so that a crash found once
/// reproduces from its input file alone.
public enum FuzzClock {
    /// Sunday 29 November 2026, 10:15 in Paris (the tests' moment).
    public static let now = Date(timeIntervalSince1970: 1_795_943_700)

    /// A Gregorian calendar in `zone`.
    public static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
        return calendar
    }

    /// Zones with interesting rules: daylight saving in both hemispheres, a half-hour
    /// offset, a 14-hour one, and none. Paris first: the import targets read in it.
    public static let zones = ["Europe/Paris", "UTC", "America/Los_Angeles", "Australia/Adelaide", "Asia/Kolkata",
                               "Pacific/Kiritimati", "America/Santiago"].map(calendar)

    /// The zone an input's first byte picks: `0` is Paris, `1` UTC, … `6` Santiago, and
    /// every other byte one of them too (so that corpus files can start with a digit).
    public static func calendar(selectedBy byte: UInt8?) -> Calendar {
        zones[(Int(byte ?? 0x30) - 0x30 + 7 * zones.count) % zones.count]
    }
}

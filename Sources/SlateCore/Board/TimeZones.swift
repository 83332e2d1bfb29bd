import Foundation
import Synchronization

/// The time zones dates and times are read in: a client's own, its account's default, or
/// the server's. A zone is named the IANA way (`Europe/Paris`, `America/New_York`, `UTC`).
public enum TimeZones {
    /// The zone named `name`, or an error naming `field` and the accepted form. Only IANA
    /// names are accepted: abbreviations such as `EST` or offsets such as `GMT+5` are
    /// refused, since they do not follow daylight saving time. Case is not significant:
    /// `europe/paris` is `Europe/Paris` (the zone's identifier is the canonical name).
    public static func zone(named name: String, field: String = "timeZone") throws -> TimeZone {
        let trimmed = canonical(name)
        guard trimmed.count <= 64, isKnown(trimmed), let zone = TimeZone(identifier: trimmed) else {
            let shown = trimmed.count > 64 ? String(trimmed.prefix(64)) + "…" : trimmed
            throw SlateError.invalid(
                field: field,
                message: "'\(field)' must be an IANA time zone name such as Europe/Paris, America/New_York or UTC; got '\(shown)'.")
        }
        return zone
    }

    /// The zone's name as Slate keeps it: `name` in its canonical case (`europe/paris` →
    /// `Europe/Paris`), after `zone(named:field:)` accepted it. Not the zone's `identifier`,
    /// which Foundation gives as `GMT` for `UTC`: an account set to UTC stays UTC.
    public static func name(_ name: String, field: String = "timeZone") throws -> String {
        _ = try zone(named: name, field: field)
        return canonical(name)
    }

    private static func canonical(_ name: String) -> String {
        let typed = name.trimmingCharacters(in: .whitespaces)
        return known.contains(typed) ? typed : knownByLowercase[typed.lowercased()] ?? typed
    }

    /// A Gregorian calendar in `zone`, as every parser and view of Slate expects.
    public static func calendar(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// The calendar of the zone named `name` (`zone(named:field:)`), made once per name: a
    /// calendar in a zone costs more to make than most requests that need one.
    public static func calendar(named name: String, field: String = "timeZone") throws -> Calendar {
        if let calendar = named.withLock({ $0[name] }) { return calendar }
        let calendar = calendar(in: try zone(named: name, field: field))
        named.withLock { named in
            if named.count >= 512 { named.removeAll(keepingCapacity: true) }
            named[name] = calendar
        }
        return calendar
    }

    private static let named = Mutex<[String: Calendar]>([:])

    private static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"])
    /// The `Area/Location` names of `known` by their lower case (not abbreviations: `est` stays refused).
    private static let knownByLowercase: [String: String] = Dictionary(
        known.filter { $0.contains("/") }.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })

    /// A name in Foundation's list, or another IANA name the zone database has: its list
    /// leaves out names browsers send (Firefox's `Asia/Kolkata`, Chrome's
    /// `America/Buenos_Aires`, `Asia/Saigon`, `America/Indianapolis`) and links such as
    /// `Etc/UTC` and `US/Eastern`. An `Area/Location` name is asked for, so that
    /// abbreviations (`EST`) and offsets (`GMT+5`), which Foundation also reads, are not.
    private static func isKnown(_ name: String) -> Bool {
        if known.contains(name) { return true }
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/_+-".unicodeScalars.contains($0)) }
        return allowed && name.contains("/") && !name.hasPrefix("/") && !name.contains("..")
    }
}

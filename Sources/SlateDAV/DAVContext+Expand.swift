import Foundation
import SlateCore

/// Why a REPORT's calendar-data element was refused, naming the attribute (400,
/// CALDAV:supported-calendar-data: the precondition RFC 4791 §7.8 and §7.9 set on the
/// calendar-data element of calendar-query and calendar-multiget).
struct CalendarDataError: Error, CustomStringConvertible {
    let description: String
}

extension DAVContext {
    /// The CALDAV:expand (RFC 4791 §9.6.5) inside the calendar-data of a REPORT's DAV:prop,
    /// nil when none is asked for: `start` and `end` are both required, UTC date-times
    /// (`20261201T000000Z`), `end` later than `start`. What an expansion returns and how far
    /// it goes is `CalendarExpansion`'s to say.
    ///
    /// `limit-recurrence-set` (§9.6.6) and `limit-freebusy-set` (§9.6.7) are not evaluated
    /// and never refused: the whole recurrence set is returned (with expand, expanded), more
    /// than such a request asks for, never less.
    static func expansion(in prop: XMLElement?) throws(CalendarDataError) -> CalendarExpansion? {
        guard let expand = prop?.child(Namespace.caldav, "calendar-data")?.child(Namespace.caldav, "expand") else { return nil }
        func moment(_ name: String) throws(CalendarDataError) -> Date {
            guard let text = expand.attributes[name] else {
                throw CalendarDataError(description: "CALDAV:expand needs its \(name) attribute, a UTC date-time such as 20261201T000000Z.")
            }
            guard let date = utcMoment(text.trimmingCharacters(in: .whitespaces)) else {
                throw CalendarDataError(description: "CALDAV:expand \(name) must be a UTC date-time such as 20261201T000000Z; got '\(text.prefix(40))'.")
            }
            return date
        }
        let start = try moment("start")
        let end = try moment("end")
        guard end > start else {
            throw CalendarDataError(description: "CALDAV:expand end must be later than its start; got start \(expand.attributes["start"] ?? "") and end \(expand.attributes["end"] ?? "").")
        }
        return CalendarExpansion(start: start, end: end)
    }
}

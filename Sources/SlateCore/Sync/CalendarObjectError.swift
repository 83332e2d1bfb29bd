import Foundation

/// Why a CalDAV read or write was refused. Each case carries a sentence that names what
/// was wrong; the CalDAV layer turns it into a status and a precondition element.
public enum CalendarObjectError: Error, Sendable, Equatable {
    /// The body is not iCalendar Slate can read (RFC 4791 `valid-calendar-data`).
    case invalidData(String)
    /// A calendar-query's filter is malformed: a missing comp-filter, a nameless filter, a
    /// time-range that is not UTC (RFC 4791 `valid-filter`).
    case invalidFilter(String)
    /// The body holds a component other than VTODO (`supported-calendar-component`).
    case unsupportedComponent(String)
    /// Another resource of the account already has this UID (`no-uid-conflict`); the
    /// other resource's collection segment and name.
    case uidConflict(collection: String, name: String)
    /// `If-Match` or `If-None-Match` did not hold (412).
    case preconditionFailed(String)
    /// No such resource or collection in this account.
    case notFound(String)
    /// The resource is larger than `CalendarLimits.maximumResourceSize`.
    case tooLarge(Int)
    /// The request is well-formed but not allowed here (deleting the Inbox, a name in use).
    case forbidden(String)
    /// A sync token this server did not hand out, or one from the future (RFC 6578 `valid-sync-token`).
    case invalidSyncToken(String)
}

extension CalendarObjectError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidData(let message), .invalidFilter(let message), .unsupportedComponent(let message), .preconditionFailed(let message),
             .forbidden(let message), .invalidSyncToken(let message):
            message
        case .uidConflict(let collection, let name): "Another resource (\(collection)/\(name)) already has this UID."
        case .notFound(let what): "No \(what)."
        case .tooLarge(let size): "The calendar object is \(size) bytes; at most \(CalendarLimits.maximumResourceSize) are accepted."
        }
    }
}

/// Bounds of what CalDAV clients may store.
public enum CalendarLimits {
    /// The largest calendar object accepted, in bytes.
    public static let maximumResourceSize = 512 * 1024
    /// The longest resource or collection name accepted, in bytes.
    public static let maximumNameLength = 255
    /// The most components (VTODOs with their overrides and alarms) in one object.
    public static let maximumComponents = 1000
    /// How many of an account's changes a sync token may be behind: an older token is
    /// refused (403 `valid-sync-token`, the client syncs from scratch), and the names of
    /// resources deleted before that are forgotten.
    public static let syncHistory = 10_000
}

import Foundation

/// A calendar object a client is storing (the body of a CalDAV PUT), read before the write
/// that stores it. Reading it needs nothing from the store, so a server reads it on the
/// request's own thread and leaves the one writer thread the work that does (about a
/// twentieth of a PUT's time on that thread was this reading).
///
/// What was wrong with the bytes is kept, not thrown: `Slate.storeCalendarObject` throws it
/// at the point where it always has, after the resource's name is checked and before its
/// preconditions are, so that the answer to a bad request does not depend on where its
/// body was read.
public struct CalendarUpload: Sendable {
    /// The bytes as the client sent them.
    public let data: Data
    let content: Result<VTodoContent, any Error>

    /// Reads `data` with `calendar`, the board's (`Slate.calendar`): floating and all-day
    /// dates are read in its time zone.
    public init(_ data: Data, calendar: Calendar) {
        self.data = data
        content = Result { try VTodoContent.read(data, calendar: calendar) }
    }
}

import Foundation

/// A task.
public struct TaskItem: Codable, Sendable, Identifiable, Hashable {
    public var id: UUID
    /// The short number people type (`slate done 12`), unique in its account; 0 until saved.
    public var number: Int
    /// The account that owns the task.
    public var accountID: UUID
    /// Never blank; surrounding white space is trimmed.
    public var title: String
    /// Free text, possibly several lines.
    public var notes: String
    public var isCompleted: Bool
    /// When it was completed; nil while active.
    public var completedAt: Date?
    public var created: Date
    public var modified: Date
    /// When it is due: a moment, or, when `isAllDay`, the start of its day in the account's
    /// zone (the order it sorts in; where it was set, for an account without a zone). Read an
    /// all-day date's day from `dueDay`, and place it in a reader's calendar with `due(in:)`:
    /// the start of the 8th in Berlin is the 7th in Los Angeles.
    public var due: Date?
    /// True when the due date is a day, not a time.
    public var isAllDay: Bool
    /// The day of an all-day due date as `yyyymmdd` (`CalendarDay.number`), the same for
    /// every reader in every time zone; nil for a timed one or none. Set with `setDue`.
    public var dueDay: Int?
    public var priority: Priority
    public var isFlagged: Bool
    /// The list it belongs to; nil for the Inbox.
    public var listID: UUID?
    /// The parent task, for subtasks.
    public var parentID: UUID?
    /// Position in the manual order, ascending.
    public var order: Double
    /// Lower-case tags without `@` or spaces, in the order given.
    public var tags: [String]
    /// How it repeats; nil for a one-off task.
    public var recurrence: Recurrence?
    /// When to remind of it (see `TaskAlert`), in the order given; empty for none.
    public var alerts: [TaskAlert]
    /// Earlier revisions that had these fields (see `SameFields`). Bookkeeping, not part of
    /// the task's value: not compared by `==`, not encoded, not in its record or export.
    var sameFields = SameFields.none

    private enum CodingKeys: String, CodingKey {
        case id, number, accountID, title, notes, isCompleted, completedAt, created, modified, due, isAllDay, dueDay
        case priority, isFlagged, listID, parentID, order, tags, recurrence, alerts
    }

    public init(
        id: UUID = UUID(), number: Int = 0, accountID: UUID, title: String, notes: String = "",
        isCompleted: Bool = false, completedAt: Date? = nil, created: Date = Date(), modified: Date? = nil,
        due: Date? = nil, isAllDay: Bool = false, dueDay: Int? = nil, priority: Priority = .none, isFlagged: Bool = false,
        listID: UUID? = nil, parentID: UUID? = nil, order: Double = 0, tags: [String] = [],
        recurrence: Recurrence? = nil, alerts: [TaskAlert] = []
    ) {
        self.id = id
        self.number = number
        self.accountID = accountID
        self.title = title
        self.notes = notes
        self.isCompleted = isCompleted
        self.completedAt = completedAt
        self.created = created
        self.modified = modified ?? created
        self.due = due
        self.isAllDay = isAllDay
        self.dueDay = dueDay
        self.priority = priority
        self.isFlagged = isFlagged
        self.listID = listID
        self.parentID = parentID
        self.order = order
        self.tags = tags
        self.recurrence = recurrence
        self.alerts = alerts
    }

    /// Sets the due date, read in `calendar`: an all-day date keeps the day it starts there,
    /// and its moment (`due`, which sorts) is that day's start in `placedIn` when given (the
    /// account's zone: `Slate.setDue(_:on:)`). The same day set again changes nothing. The
    /// calendar is made only for an all-day date (`slate add` of a task without one makes none).
    public mutating func setDue(_ value: DueDate?, calendar: @autoclosure () -> Calendar, placedIn anchor: Calendar? = nil) {
        let day = value.flatMap { $0.isAllDay ? CalendarDay($0.date, in: calendar()) : nil }
        if let day, isAllDay, due != nil, dueDay == day.number { return }
        due = day.flatMap { day in anchor.map { day.start(in: $0) } } ?? value?.date
        isAllDay = value?.isAllDay ?? false
        dueDay = day?.number
    }

    /// The day of an all-day due date; nil for a timed one or none.
    public var dueCalendarDay: CalendarDay? {
        guard isAllDay, due != nil else { return nil }
        return dueDay.flatMap(CalendarDay.init(number:))
    }

    /// `due` as the record writes it: an all-day date's day (`2026-12-24`), the same in every
    /// zone, else the moment in ISO 8601 UTC; nil without one. (`calendar` reads the day of
    /// an all-day date stored without one.)
    public func dueText(calendar: Calendar) -> String? {
        guard let due else { return nil }
        if let day = dueCalendarDay { return day.description }
        return isAllDay ? Timestamp.formatDay(due, calendar: calendar) : Timestamp.format(due)
    }

    /// When it is due as seen in `calendar`: a timed date as is; an all-day date as the
    /// start of its day there (the only case that makes the calendar).
    public func due(in calendar: @autoclosure () -> Calendar) -> Date? {
        guard let day = dueCalendarDay else { return due }
        return day.start(in: calendar())
    }

    /// Overdue: due in the past and not completed. An all-day task is overdue once its day has ended.
    public func isOverdue(now: Date, calendar: Calendar) -> Bool {
        isOverdue(now: now, today: CalendarDay(now, in: calendar), startOfToday: DayStarts.start(of: now, in: calendar))
    }

    /// `isOverdue(now:calendar:)` with today worked out by the caller.
    func isOverdue(now: Date, today: CalendarDay, startOfToday: Date) -> Bool {
        guard !isCompleted, let due else { return false }
        guard isAllDay else { return due < now }
        guard let day = dueDay else { return due < startOfToday }
        return day < today.number
    }
}

extension TaskItem {
    /// A new task with this one's fields (a repeat's next occurrence, a completed copy of
    /// one, a subtask there again): its own id, a number given when it is saved, made and
    /// changed `now`, completed then or open.
    func copied(now: Date, completed: Bool) -> TaskItem {
        var copy = self
        copy.id = UUID()
        copy.number = 0
        copy.isCompleted = completed
        copy.completedAt = completed ? now : nil
        copy.created = now
        copy.modified = now
        return copy
    }
}

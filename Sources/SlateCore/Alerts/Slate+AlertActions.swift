import Foundation
import SlateStore

/// What fires next for one task (`slate alerts`).
public struct UpcomingAlert: Sendable, Hashable {
    public let task: TaskItem
    public let fireAt: Date
    /// True when it is a snoozed alert coming back.
    public let isSnoozed: Bool
}

extension Slate {
    /// The forms `snoozeMoment` accepts.
    public static let snoozeForms = "'10m', '1h', 'tomorrow' (9:00 tomorrow) or an ISO 8601 moment"

    /// When a snooze given as text ends: a lead time from now (`10m`, `1h`), `tomorrow`
    /// (9:00 tomorrow, local time) or a moment.
    public func snoozeMoment(_ text: String, field: String = "until") throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "tomorrow" {
            let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now
            return calendar.date(bySettingHour: 9, minute: 0, second: 0, of: tomorrow) ?? tomorrow
        }
        if let moment = Timestamp.parse(trimmed) {
            guard moment > now else { throw SlateError.invalid(field: field, message: "'\(text)' is in the past; snooze until a later moment.") }
            return Timestamp.truncatedToMilliseconds(moment)
        }
        if let alert = try? TaskAlert(parsing: trimmed), case .beforeDue(let seconds) = alert.trigger, seconds > 0 {
            return now.addingTimeInterval(Double(seconds))
        }
        throw SlateError.invalid(field: field, message: "'\(text)' is not a snooze; use \(Self.snoozeForms).")
    }

    /// Puts off the task's alert that fired (what was due so far): it fires again, once, at
    /// `until`. Alerts that have not fired yet keep their own times: a snooze never holds
    /// them back.
    public func snoozeAlert(taskID: UUID, until: Date) throws {
        try updateCursor(taskID) { cursor in
            cursor.handledThrough = max(cursor.handledThrough, now)
            cursor.snoozedUntil = until
        }
    }

    /// Dismisses the task's alerts due so far (and a snooze); later ones still fire.
    public func dismissAlert(taskID: UUID) throws {
        try updateCursor(taskID) { cursor in
            cursor.handledThrough = max(cursor.handledThrough, now)
            cursor.snoozedUntil = nil
        }
    }

    private func updateCursor(_ taskID: UUID, _ change: (inout AlertCursor) -> Void) throws {
        try retryingConflicts {
            let task = try self.task(id: taskID).model
            let context = makeContext(undo: false)
            let existing = try translatingErrors { try context.revisioned(AlertCursor.self, id: taskID) }
            var cursor = existing?.model ?? AlertCursor(taskID: taskID, accountID: accountID, nextFire: nil, handledThrough: task.modified)
            change(&cursor)
            cursor.nextFire = AlertCursor.nextFire(of: task, after: cursor.handledThrough, snoozedUntil: cursor.snoozedUntil, calendar: calendar)
            if let existing { context.update(cursor, expectedRevision: existing.revision) } else { context.insert(cursor) }
            _ = try translatingErrors { try context.save() }
        }
    }

    /// The next alert of each active task, soonest first, at most `limit`.
    public func upcomingAlerts(limit: Int = 20) throws -> [UpcomingAlert] {
        let accountID = self.accountID
        let context = makeContext(undo: false)
        let now = self.now
        // In the account's zone, where `slate serve` sends them.
        let home = homeCalendar
        return try translatingErrors {
            let tasks = try context.fetch(FetchDescriptor<TaskItem>(predicate: #Predicate { $0.accountID == accountID && $0.isCompleted == false }))
            var upcoming: [UpcomingAlert] = []
            for task in tasks where !task.alerts.isEmpty {
                let cursor = try context.model(AlertCursor.self, id: task.id)
                let after = max(now, cursor?.handledThrough ?? now)
                let snoozed = cursor?.snoozedUntil
                guard let next = AlertCursor.nextFire(of: task, after: after, snoozedUntil: snoozed, calendar: home) else { continue }
                upcoming.append(UpcomingAlert(task: task, fireAt: next, isSnoozed: next == snoozed))
            }
            return Array(upcoming.sorted { ($0.fireAt, $0.task.number) < ($1.fireAt, $1.task.number) }.prefix(limit))
        }
    }
}

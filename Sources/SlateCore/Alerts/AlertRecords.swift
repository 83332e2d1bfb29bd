import Foundation
import SlateStore

/// The scheduler's place in one task's alerts: when it next fires, and up to when its
/// alerts have been handled (fired, dismissed or skipped). Kept apart from the task so
/// that firing never changes the task (nor its revision and ETag).
public struct AlertCursor: Codable, Sendable, Identifiable, Hashable {
    /// The task's id.
    public var id: UUID
    public var taskID: UUID
    public var accountID: UUID
    /// The next moment something fires; nil: nothing to fire.
    public var nextFire: Date?
    /// Alerts firing at or before this moment are done.
    public var handledThrough: Date
    /// A snoozed alert fires again at this moment; nil when not snoozed.
    public var snoozedUntil: Date?

    public init(taskID: UUID, accountID: UUID, nextFire: Date?, handledThrough: Date, snoozedUntil: Date? = nil) {
        self.id = taskID
        self.taskID = taskID
        self.accountID = accountID
        self.nextFire = nextFire
        self.handledThrough = handledThrough
        self.snoozedUntil = snoozedUntil
    }

    /// The next firing of `task` after `handledThrough` (or the snooze, if sooner);
    /// nil for a completed task.
    static func nextFire(of task: TaskItem, after handled: Date, snoozedUntil: Date?, calendar: Calendar) -> Date? {
        guard !task.isCompleted else { return nil }
        let times = task.alerts.compactMap { $0.fireDate(due: task.due(in: calendar), calendar: calendar) }.filter { $0 > handled }
        return (times + [snoozedUntil].compactMap { $0 }).min()
    }
}

/// One alert to be delivered (or delivered) through one channel to one device. The
/// unique (task, moment, channel) key makes each alert go out once per channel/device.
public struct AlertDelivery: Codable, Sendable, Identifiable, Hashable {
    public enum State: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        /// Waiting to be sent (again, after a failure, at `nextAttempt`).
        case pending
        /// Claimed for an attempt, recorded before anything is sent: a delivery found in
        /// this state was interrupted (the server was killed while sending) and may have
        /// reached its receiver, so it is sent again marked as a redelivery.
        case sending
        /// Sent.
        case sent
        /// Given up after too many failures, or the device is gone.
        case failed
    }

    public var id: UUID
    public var accountID: UUID
    public var taskID: UUID
    /// When the alert was due to fire.
    public var fireAt: Date
    /// `page`, `webhook`, `email` or `push:<device id>`.
    public var channel: String
    public var state: State
    /// Sent more than a minute after `fireAt` (the server was down, or it was retried).
    public var isLate: Bool
    public var attempts: Int
    /// When to try next while pending.
    public var nextAttempt: Date
    /// When it was sent.
    public var sentAt: Date?
    /// Why the last attempt failed, for the log and settings.
    public var lastError: String
    /// A test alert asked for in settings (its task is made up, see `TestAlert`).
    public var isTest: Bool

    public init(id: UUID = UUID(), accountID: UUID, taskID: UUID, fireAt: Date, channel: String, isLate: Bool, now: Date,
                isTest: Bool = false) {
        self.id = id
        self.accountID = accountID
        self.taskID = taskID
        self.fireAt = fireAt
        self.channel = channel
        self.state = .pending
        self.isLate = isLate
        self.attempts = 0
        self.nextAttempt = now
        self.sentAt = nil
        self.lastError = ""
        self.isTest = isTest
    }

    /// True when an earlier attempt may have reached the receiver (it failed after
    /// sending, or was interrupted): receivers should drop it if they have its id.
    public var mayBeRepeat: Bool { attempts > 0 }
}

// Neither table is partitioned by account: the scheduler's bookkeeping is not a change
// to anyone's board, so it sends no live `change` events. Neither refers to its task by a
// foreign key: a task may go (deleted, or its creation undone) by any path, and the
// scheduler finds it gone when it reads it (a cursor is dropped, a delivery given up).

extension AlertCursor: PersistentModel {
    public static let schema = ModelSchema<AlertCursor>(
        table: "alert_cursors",
        columns: [
            .column(\.taskID, "taskID"), .column(\.nextFire, "nextFire"), .column(\.handledThrough, "handledThrough"),
            .column(\.snoozedUntil, "snoozedUntil"),
        ],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        // The scheduler's one question: what fires next.
        indexes: [Index("alert_cursors_by_next", on: ["nextFire"])]
    )
}

extension AlertDelivery: PersistentModel {
    public static let schema = ModelSchema<AlertDelivery>(
        table: "alert_deliveries",
        columns: [
            .column(\.fireAt, "fireAt"), .column(\.channel, "channel"), .column(\.state, "state"), .column(\.isLate, "isLate"),
            .column(\.attempts, "attempts"), .column(\.nextAttempt, "nextAttempt"), .column(\.sentAt, "sentAt"),
            .column(\.lastError, "lastError"), .column(\.taskID, "taskID"), .column(\.isTest, "isTest", default: false),
        ],
        references: [.reference(\.accountID, "accountID", to: Account.self, onDelete: .cascade)],
        indexes: [
            Index("alert_deliveries_once", on: ["taskID", "fireAt", "channel"], unique: true),
            Index("alert_deliveries_by_state", on: ["state", "nextAttempt"]),
        ]
    )
}

extension SlateSchema {
    /// The alert tables (settings, the scheduler's cursors, deliveries): new tables, which
    /// the store's migration adds to an older file by itself.
    static let alertModels: [any PersistentModel.Type] = [AlertSettings.self, AlertCursor.self, AlertDelivery.self,
                                                                PushSubscription.self, VAPIDKey.self]
}

import Foundation
import SlateStore

/// A test alert, asked for in settings ("Send a test alert"): it goes through every channel
/// and device of the account as a real alert would, about a made-up task that cannot be
/// completed or snoozed.
///
/// Asking records one request (a delivery on the `test` pseudo-channel); the scheduler
/// turns it into one delivery per channel/device and sends those like any other.
public enum TestAlert {
    /// The channel name of a request, before the scheduler expands it.
    static let requestChannel = "test"
    /// The made-up task's title.
    public static let title = "Test alert from Slate"

    /// The made-up task a test delivery is about: due when it was asked for.
    static func task(_ delivery: AlertDelivery, calendar: Calendar) -> TaskItem {
        TaskItem(id: delivery.taskID, accountID: delivery.accountID, title: title,
                 notes: "Alerts reach you here. Nothing to do.", created: delivery.fireAt, due: delivery.fireAt)
    }
}

extension Slate {
    /// Asks the server to send a test alert through every channel and device of the
    /// account now; returns its id (the `taskId` the channels carry).
    @discardableResult
    public func requestTestAlert() throws -> UUID {
        let id = UUID()
        let context = makeContext(undo: false)
        context.insert(AlertDelivery(accountID: accountID, taskID: id, fireAt: Timestamp.truncatedToMilliseconds(now),
                                     channel: TestAlert.requestChannel, isLate: false, now: now, isTest: true))
        _ = try translatingErrors { try context.save() }
        return id
    }
}

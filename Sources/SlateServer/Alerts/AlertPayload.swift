import Foundation
import SlateCore

/// The JSON every channel sends for an alert (SSE `alert` events, webhook bodies, push
/// payloads): the delivery id (the same on every attempt), the task, when it was due to
/// fire, whether it is late, whether an earlier attempt may have arrived (`repeat`: drop it
/// if you have its id), whether it is a test alert (`test`: nothing to act on), and the
/// address that opens the task in the web app.
enum AlertPayload {
    static func object(_ alert: FiredAlert) -> [String: Any] {
        let task = alert.task
        return [
            "repeat": alert.mayBeRepeat,
            "test": alert.isTest,
            "id": alert.deliveryID.uuidString.lowercased(),
            "taskId": task.id.uuidString.lowercased(),
            "number": task.number,
            "title": task.title,
            "due": task.due.map { task.isAllDay ? Timestamp.formatDay($0, calendar: alert.calendar) : Timestamp.format($0) } ?? NSNull(),
            "isAllDay": task.isAllDay,
            "fireAt": Timestamp.format(alert.fireAt),
            "late": alert.isLate,
            "url": alert.isTest ? "/?view=settings" : "/?task=\(task.id.uuidString.lowercased())",
        ]
    }

    static func data(_ alert: FiredAlert) -> Data {
        (try? JSONSerialization.data(withJSONObject: object(alert), options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }
}

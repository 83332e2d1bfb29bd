import Foundation
import SlateCore

/// The JSON every channel sends for an alert (SSE `alert` events, webhook bodies, push
/// payloads): the delivery id (the same on every attempt), the task, when it was due to
/// fire, whether it is late, whether an earlier attempt may have arrived (`repeat`: drop it
/// if you have its id), whether it is a test alert (`test`: nothing to act on), and the
/// address that opens the task in the web app. Keys in alphabetical order.
///
/// Written by hand: `JSONSerialization` with sorted keys took a tenth of the server's time
/// while 10,000 alerts went out (bench/alerts); the shape is fixed and small.
enum AlertPayload {
    static func data(_ alert: FiredAlert) -> Data {
        let task = alert.task
        let id = task.id.uuidString.lowercased()
        var json = "{"
        var first = true
        func member(_ key: String, _ value: String) {
            json += (first ? "\"" : ",\"") + key + "\":" + value
            first = false
        }
        let due = task.dueText(calendar: alert.calendar)
        member("due", due.map(string) ?? "null")
        member("fireAt", string(Timestamp.format(alert.fireAt)))
        member("id", string(alert.deliveryID.uuidString.lowercased()))
        member("isAllDay", task.isAllDay ? "true" : "false")
        member("late", alert.isLate ? "true" : "false")
        member("number", String(task.number))
        member("repeat", alert.mayBeRepeat ? "true" : "false")
        member("taskId", string(id))
        member("test", alert.isTest ? "true" : "false")
        member("title", string(task.title))
        member("url", string(alert.isTest ? "/?view=settings" : "/?task=" + id))
        json += "}"
        return Data(json.utf8)
    }

    static func string(_ text: String) -> String { JSONString.literal(text) }
}

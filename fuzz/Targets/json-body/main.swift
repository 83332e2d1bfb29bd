import Foundation
import FuzzSupport
import SlateHTTP
@testable import SlateServer

// The API's request-body reader (JSONBody) and the task fields read through it (TaskInput:
// priority, due dates in three forms, recurrence, ids, tags, whole numbers).
FuzzDriver.run { start, count in
    guard count <= FuzzInput.maximumLength else { return 0 }
    let request = Request(method: .post, path: "/api/v1/tasks", headers: ["Content-Type": "application/json"],
                          body: FuzzInput.data(start, count))
    guard let body = try? JSONBody(request, allowed: TaskInput.fields) else { return 0 }
    let input = TaskInput(body: body, calendar: FuzzClock.zones[0], now: FuzzClock.now)
    _ = try? input.draft()
    _ = try? input.patch()
    for key in TaskInput.fields {
        _ = try? body.integer(key)
        _ = try? body.uuids(key)
    }
    return 0
}

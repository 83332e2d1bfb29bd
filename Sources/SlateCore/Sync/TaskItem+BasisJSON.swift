import Foundation

extension TaskItem {
    /// The task as `JSONEncoder` writes it (the keys of its `Codable` form, sorted), written
    /// directly: what a stored calendar object keeps as its basis (`CalendarResourceBody`).
    /// Every CalDAV PUT writes one on the single writer thread, where the encoder's own
    /// machinery cost about a twentieth of the PUT. `JSONDecoder` reads both the same: ids
    /// are written in capitals as the encoder does, dates as seconds since 2001, and a
    /// repeat or alerts (when there are any), rarer and nested, by the encoder itself.
    var basisJSON: String {
        var output = JSONOutput(capacity: 512)
        output.bytes.append(UInt8(ascii: "{"))
        output.key("accountID")
        output.string(accountID.uuidString)
        if alerts.isEmpty {
            output.nextKey("alerts")
            output.strings([])
        } else {
            Self.encoded(alerts, as: "alerts", into: &output)
        }
        if let completedAt { Self.field("completedAt", completedAt, into: &output) }
        Self.field("created", created, into: &output)
        if let due { Self.field("due", due, into: &output) }
        if let dueDay {
            output.nextKey("dueDay")
            output.int(dueDay)
        }
        output.nextKey("id")
        output.string(id.uuidString)
        for (key, flag) in [("isAllDay", isAllDay), ("isCompleted", isCompleted), ("isFlagged", isFlagged)] {
            output.nextKey(key)
            output.bool(flag)
        }
        if let listID {
            output.nextKey("listID")
            output.string(listID.uuidString)
        }
        Self.field("modified", modified, into: &output)
        output.nextKey("notes")
        output.string(notes)
        output.nextKey("number")
        output.int(number)
        output.nextKey("order")
        output.double(order)
        if let parentID {
            output.nextKey("parentID")
            output.string(parentID.uuidString)
        }
        output.nextKey("priority")
        output.int(priority.rawValue)
        if let recurrence { Self.encoded(recurrence, as: "recurrence", into: &output) }
        output.nextKey("tags")
        output.strings(tags)
        output.nextKey("title")
        output.string(title)
        output.bytes.append(UInt8(ascii: "}"))
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// `,"key":` and a date as `JSONEncoder` writes one by default (seconds since 2001).
    private static func field(_ key: String, _ date: Date, into output: inout JSONOutput) {
        output.nextKey(key)
        output.double(date.timeIntervalSinceReferenceDate)
    }

    /// `,"key":` and `value` as `JSONEncoder` writes it, keys sorted.
    private static func encoded<Value: Encodable>(_ value: Value, as key: String, into output: inout JSONOutput) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(value) else { return }
        output.nextKey(key)
        output.bytes += data
    }
}

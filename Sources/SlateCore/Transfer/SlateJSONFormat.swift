import Foundation

/// Slate's own JSON: every field of every list and task, so that an export imported into
/// an empty database gives the same board back, ids and numbers included.
///
/// ```json
/// {
///   "format": "slate",
///   "version": 1,
///   "exported": "2026-11-29T09:15:00.000Z",
///   "lists": [
///     {"id":"…","name":"Story","color":"#FF6B6B","icon":"book","order":1,"created":"2026-11-29T09:15:00.000Z"}
///   ],
///   "tasks": [
///     {"id":"…","number":1,"title":"Write Act 2 outline","notes":"","isCompleted":false,"completedAt":null,
///      "created":"…","modified":"…","due":"2026-11-27","isAllDay":true,"priority":"critical","isFlagged":false,
///      "listID":"…","parentID":null,"order":1,"tags":[],"recurrence":"weekly/2","reminderOffset":null,
///      "alerts":["15m","1d@09:00"]}
///   ]
/// }
/// ```
///
/// Keys are the models' property names. Moments are ISO 8601 UTC to the millisecond
/// (`Timestamp.format`); an all-day due date is the day (`2026-12-24`) in the exporting
/// Slate's calendar. Priorities are names, recurrences their stored form. On import,
/// unknown keys are ignored and every key but a list's `name` and a task's `title` may be
/// left out (defaults as for a new list or task).
enum SlateJSONFormat {
    static let formatName = "slate"
    static let version = 1

    // MARK: Export

    static func encode(_ snapshot: ExportSnapshot) -> Data {
        let calendar = snapshot.calendar
        let lists: [JSONValue] = snapshot.lists.map { list in
            .object(JSONObject([
                ("id", .string(list.id.uuidString.lowercased())), ("name", .string(list.name)),
                ("color", .string(list.color)), ("icon", .string(list.icon)), ("order", .number(list.order)),
                ("created", .string(Timestamp.format(list.created))),
            ]))
        }
        let tasks: [JSONValue] = snapshot.tasks.map { task in
            let due: JSONValue = task.due.map { .string(task.isAllDay ? Timestamp.formatDay($0, calendar: calendar) : Timestamp.format($0)) } ?? .null
            return .object(JSONObject([
                ("id", .string(task.id.uuidString.lowercased())), ("number", .integer(task.number)),
                ("title", .string(task.title)), ("notes", .string(task.notes)),
                ("isCompleted", .bool(task.isCompleted)), ("completedAt", .text(task.completedAt.map(Timestamp.format))),
                ("created", .string(Timestamp.format(task.created))), ("modified", .string(Timestamp.format(task.modified))),
                ("due", due), ("isAllDay", .bool(task.isAllDay)), ("priority", .string(task.priority.name)),
                ("isFlagged", .bool(task.isFlagged)), ("listID", .text(task.listID?.uuidString.lowercased())),
                ("parentID", .text(task.parentID?.uuidString.lowercased())), ("order", .number(task.order)),
                ("tags", .array(task.tags.map(JSONValue.string))), ("recurrence", .text(task.recurrence?.storageValue)),
                ("reminderOffset", .integer(task.reminderOffset)),
                ("alerts", .array(task.alerts.map { .string($0.text) })),
            ]))
        }
        return JSONValue.object(JSONObject([
            ("format", .string(formatName)), ("version", .integer(version)),
            ("exported", .string(Timestamp.format(snapshot.exported))),
            ("lists", .array(lists)), ("tasks", .array(tasks)),
        ])).document()
    }

    // MARK: Import

    static func decode(_ data: Data, calendar: Calendar) throws -> ImportBatch {
        guard case .object(let root) = try JSONValue.parse(data), root["format"] == .string(formatName) else {
            throw ImportError(.file, field: "format", "The file is not a Slate export: it has no \"format\": \"slate\" at the top.")
        }
        if let value = root["version"] {
            guard case .number(let version) = value, version >= 1, version == version.rounded() else {
                throw ImportError(.file, field: "version", "version must be a whole number from 1; got \(value.excerpt())")
            }
            guard version <= Double(Self.version) else {
                throw ImportError(.file, field: "version", "The file is version \(Int(version)) of Slate's format; this Slate reads version \(Self.version).")
            }
        }
        var batch = ImportBatch()
        for (index, value) in try members("lists", of: root).enumerated() {
            batch.lists.append(try list(JSONRecord(value, kind: "list", index: index)))
        }
        for (index, value) in try members("tasks", of: root).enumerated() {
            batch.tasks.append(try task(JSONRecord(value, kind: "task", index: index), calendar: calendar))
        }
        return batch
    }

    private static func members(_ key: String, of root: JSONObject) throws -> [JSONValue] {
        switch root[key] {
        case nil, .null?: return []
        case .array(let elements)?: return elements
        case let value?: throw ImportError(.file, field: key, "\(key) must be a list; got \(value.excerpt())")
        }
    }

    private static func list(_ record: JSONRecord) throws -> IncomingList {
        let at = record.location
        var list = IncomingList(
            location: at, id: try record.uuid("id"),
            name: try ImportRules.listName(try record.requiredString("name"), at: at, field: "name"))
        list.color = try record.string("color").map { try ImportRules.color($0, at: at, field: "color") }
        list.icon = try record.string("icon").map { try ImportRules.icon($0, at: at, field: "icon") }
        list.order = try record.double("order").map { try ImportRules.order($0, at: at, field: "order") }
        list.created = try record.timestamp("created")
        return list
    }

    private static func task(_ record: JSONRecord, calendar: Calendar) throws -> IncomingTask {
        let at = record.location
        var task = IncomingTask(location: at, title: try ImportRules.title(try record.requiredString("title"), at: at, field: "title"))
        task.id = try record.uuid("id")
        if let number = try record.int("number") {
            guard number >= 0 else { throw record.error("number", "must be 1 or more; got \(number)") }
            task.number = number == 0 ? nil : number
        }
        task.notes = try ImportRules.notes(try record.string("notes") ?? "", at: at, field: "notes")
        task.isCompleted = try record.bool("isCompleted") ?? false
        task.completedAt = try record.timestamp("completedAt")
        task.created = try record.timestamp("created")
        task.modified = try record.timestamp("modified")
        let isAllDay = try record.bool("isAllDay")
        if let text = try record.string("due") {
            // A day (`2026-12-24`) is never a moment: skip Timestamp.parse's regex for it.
            let day = Timestamp.parseDay(text, calendar: calendar)
            let moment = JSONRecord.exportedTimestamp(text) ?? (text.count == 10 ? nil : Timestamp.parse(text))
            switch (isAllDay, moment, day) {
            case (true, _, let day?), (nil, nil, let day?):
                task.due = day
                task.isAllDay = true
            case (false, let moment?, _), (nil, let moment?, _):
                task.due = moment
            case (true, _?, nil):
                throw record.error("due", "must be a day such as 2026-12-24 when isAllDay is true; got '\(text)'")
            case (false, nil, _?):
                throw record.error("due", "must be a moment such as 2026-12-24T09:00:00.000Z when isAllDay is false; got '\(text)'")
            default:
                throw record.error("due", "has an invalid date '\(text)'")
            }
        }
        if let isAllDay { task.isAllDay = isAllDay }
        if let name = try record.string("priority") {
            guard let priority = Priority(name: name) else {
                throw record.error("priority", "must be one of \(Priority.acceptedForms); got '\(name)'")
            }
            task.priority = priority
        }
        task.isFlagged = try record.bool("isFlagged") ?? false
        task.list = try record.uuid("listID").map(ListReference.id)
        task.parentID = try record.uuid("parentID")
        task.order = try record.double("order").map { try ImportRules.order($0, at: at, field: "order") }
        task.tags = try ImportRules.tags(try record.strings("tags") ?? [], at: at, field: "tags")
        if let text = try record.string("recurrence") {
            guard let recurrence = Recurrence(storageValue: text) else {
                throw record.error("recurrence", "must be daily, weekly, monthly or yearly, with /interval for more than 1 (weekly/2); got '\(text)'")
            }
            task.recurrence = try ImportRules.recurrence(recurrence, at: at, field: "recurrence")
        }
        task.reminderOffset = try record.int("reminderOffset")
        if let texts = try record.strings("alerts") {
            do {
                task.alerts = try TaskAlert.validated(try TaskAlert.parseList(texts), hasDue: task.due != nil)
            } catch let error as SlateError {
                throw record.error("alerts", error.description)
            }
        } else if let offset = task.reminderOffset, offset >= 0, task.due != nil {
            // An export from before alerts: its reminder becomes one.
            task.alerts = [TaskAlert(.beforeDue(seconds: offset))]
        }
        return task
    }
}

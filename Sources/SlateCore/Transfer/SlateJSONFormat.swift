import Foundation

/// Slate's own JSON: every list and task as its one public record (`ListRecord`,
/// `TaskRecord`, the same objects the API and `--json` give), so that an export imported
/// into an empty database gives the same board back, ids and numbers included.
///
/// ```json
/// {
///   "format": "slate",
///   "version": 2,
///   "exported": "2026-11-29T09:15:00.000Z",
///   "lists": [
///     {"activeCount":1,"color":"#FF6B6B","created":"…","icon":"book","id":"…","name":"Story","order":1.0}
///   ],
///   "tasks": [
///     {"completedAt":null,"created":"…","due":"2026-11-27","id":"…","isAllDay":true,…,"listId":"…",
///      "parentId":null,"priority":"critical","recurrence":"every 2 weeks",…,"title":"Write Act 2 outline"}
///   ]
/// }
/// ```
///
/// An all-day due date is the day (`2026-12-24`) in the exporting Slate's calendar. On
/// import, fields a record derives (`isOverdue`, `list`, `subtaskCount`, `activeCount`)
/// and unknown keys are ignored (a list's `revision` belongs to its database and is not
/// written), and every key but a list's `name` and a task's
/// `title` may be left out. Version 1 files (and files without a version) are read in
/// their own dialect: `listID`, `parentID` and stored repeats such as `weekly/2`.
enum SlateJSONFormat {
    static let formatName = "slate"
    static let version = 2

    // MARK: Export

    static func encode(_ snapshot: ExportSnapshot) -> Data {
        var subtasks: [UUID: SubtaskCount] = [:]
        var active: [UUID: Int] = [:]
        for task in snapshot.tasks {
            if let parent = task.parentID {
                subtasks[parent, default: .zero].total += 1
                if !task.isCompleted { subtasks[parent, default: .zero].active += 1 }
            }
            if let list = task.listID, !task.isCompleted { active[list, default: 0] += 1 }
        }
        let context = RecordContext(listNames: snapshot.listNames, now: snapshot.exported, calendar: snapshot.calendar,
                                    subtaskCounts: subtasks)
        // Laid out for reading and diffing: one record per line, each written as the API writes it.
        var output = JSONOutput(capacity: 256 + 640 * snapshot.tasks.count)
        output.bytes += Array("{\n  \"format\": \"\(formatName)\",\n  \"version\": \(version),\n  \"exported\": ".utf8)
        output.string(Timestamp.format(snapshot.exported))
        output.bytes += Array(",\n  \"lists\": ".utf8)
        records(snapshot.lists, into: &output) { list, output in
            ListRecord.write(ListSummary(list: list, activeCount: active[list.id] ?? 0, revision: 0), forFile: true, into: &output)
        }
        output.bytes += Array(",\n  \"tasks\": ".utf8)
        records(snapshot.tasks, into: &output) { task, output in TaskRecord.write(task, context, into: &output) }
        output.bytes += Array("\n}\n".utf8)
        return Data(output.bytes)
    }

    /// `[]`, or each record on a line of its own.
    private static func records<Element>(_ elements: [Element], into output: inout JSONOutput,
                                         _ write: (Element, inout JSONOutput) -> Void) {
        guard !elements.isEmpty else { return output.bytes += Array("[]".utf8) }
        output.bytes += Array("[\n".utf8)
        for (index, element) in elements.enumerated() {
            output.bytes += Array("    ".utf8)
            write(element, &output)
            output.bytes += Array((index < elements.count - 1 ? ",\n" : "\n").utf8)
        }
        output.bytes += Array("  ]".utf8)
    }

    // MARK: Import

    static func decode(_ data: Data, calendar: Calendar) throws -> ImportBatch {
        guard case .object(let root) = try JSONValue.parse(data), root["format"] == .string(formatName) else {
            throw ImportError(.file, field: "format", "The file is not a Slate export: it has no \"format\": \"slate\" at the top.")
        }
        var fileVersion = 1
        if let value = root["version"] {
            guard case .number(let version) = value, version >= 1, version == version.rounded() else {
                throw ImportError(.file, field: "version", "version must be a whole number from 1; got \(value.excerpt())")
            }
            guard version <= Double(Self.version) else {
                throw ImportError(.file, field: "version", "The file is version \(Int(version)) of Slate's format; this Slate reads versions 1 to \(Self.version).")
            }
            fileVersion = Int(version)
        }
        let isRecord = fileVersion >= 2
        var batch = ImportBatch()
        for (index, value) in try members("lists", of: root).enumerated() {
            batch.lists.append(try list(JSONRecord(value, kind: "list", index: index)))
        }
        for (index, value) in try members("tasks", of: root).enumerated() {
            batch.tasks.append(try task(JSONRecord(value, kind: "task", index: index), calendar: calendar, isRecord: isRecord))
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
            name: try ImportRules.listName(try record.requiredString("name"), at: at, field: "name", declared: true))
        list.color = try record.string("color").map { try ImportRules.color($0, at: at, field: "color") }
        list.icon = try record.string("icon").map { try ImportRules.icon($0, at: at, field: "icon") }
        list.order = try record.double("order").map { try ImportRules.order($0, at: at, field: "order") }
        list.created = try record.timestamp("created")
        return list
    }

    /// - Parameter isRecord: the file is version 2 (the public record's names and phrases).
    private static func task(_ record: JSONRecord, calendar: Calendar, isRecord: Bool) throws -> IncomingTask {
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
        let (listKey, parentKey) = isRecord ? ("listId", "parentId") : ("listID", "parentID")
        task.listField = listKey
        task.parentField = parentKey
        task.list = try record.uuid(listKey).map(ListReference.id)
        task.parentID = try record.uuid(parentKey)
        task.order = try record.double("order").map { try ImportRules.order($0, at: at, field: "order") }
        task.tags = try ImportRules.tags(try record.strings("tags") ?? [], at: at, field: "tags")
        if isRecord, let text = try record.string("recurrence") {
            do {
                task.recurrence = try TaskValues.recurrence(text)
            } catch let error as SlateError {
                throw record.error("recurrence", "must be a repeat such as every 2 weeks; \(error.description)")
            }
        } else if let text = try record.string("recurrence") {
            guard let recurrence = Recurrence(storageValue: text) else {
                throw record.error("recurrence", "must be daily, weekly, monthly or yearly, with /interval for more than 1 (weekly/2); got '\(text)'")
            }
            task.recurrence = try ImportRules.recurrence(recurrence, at: at, field: "recurrence")
        }
        let reminderOffset = try record.int("reminderOffset")
        if let texts = try record.strings("alerts") {
            do {
                task.alerts = try TaskAlert.validated(try TaskAlert.parseList(texts), hasDue: task.due != nil)
            } catch let error as SlateError {
                throw record.error("alerts", error.description)
            }
        } else if let reminderOffset, let due = task.due {
            // An export from before alerts: its reminder becomes one.
            task.alerts = TaskAlert(legacyReminderOffset: reminderOffset, due: due).map { [$0] } ?? []
        }
        return task
    }
}

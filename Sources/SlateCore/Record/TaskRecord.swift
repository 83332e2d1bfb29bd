import Foundation

/// What a task's record needs beyond the task: its list's name, the moment "overdue" is
/// judged at, the calendar of all-day dates, and subtask counts.
public struct RecordContext: Sendable {
    public var listNames: [UUID: String]
    /// Fixed at creation: `startOfToday` is worked out from them.
    public let now: Date
    public let calendar: Calendar
    /// The subtask counts of the tasks that have subtasks (absent: none).
    public var subtaskCounts: [UUID: SubtaskCount]
    /// Worked out once for every task written with this context.
    let startOfToday: Date
    let today: CalendarDay

    public init(listNames: [UUID: String], now: Date, calendar: Calendar, subtaskCounts: [UUID: SubtaskCount] = [:]) {
        self.listNames = listNames
        self.now = now
        self.calendar = calendar
        self.subtaskCounts = subtaskCounts
        startOfToday = DayStarts.start(of: now, in: calendar)
        today = CalendarDay(now, in: calendar)
    }
}

/// The one public record of a task, declared once: its field names, their encodings and
/// their JSON schemas. The REST API, `--json`, the Slate JSON export and the OpenAPI
/// document all come from `fields`, so a field cannot exist in one and not in another.
///
/// Ids are lower-case UUIDs; moments are ISO 8601 UTC to the millisecond; an all-day
/// `due` is its day (`2026-12-24`), the same in every time zone; `priority` is its name;
/// `recurrence` the phrase people say (`every 2 weeks`).
public enum TaskRecord {
    /// One field of the record.
    public struct Field: Sendable {
        public let name: String
        /// Its JSON schema (OpenAPI 3.1 / JSON Schema 2020-12).
        public let schema: @Sendable () -> [String: Any]
        let write: @Sendable (TaskItem, RecordContext, inout JSONOutput) -> Void
    }

    /// Every field, in the byte order of their names (the order they are written in).
    public static let fields: [Field] = [
        Field(name: "alerts", schema: {
            ["type": "array", "maxItems": TaskAlert.maximumCount,
             "items": ["type": "string", "maxLength": 40, "description": "One of " + TaskAlert.acceptedForms],
             "examples": [["15m", "1d@09:00"]]]
        }) { task, _, out in
            out.bytes.append(UInt8(ascii: "["))
            for (index, alert) in task.alerts.enumerated() {
                if index > 0 { out.comma() }
                out.string(alert.text)
            }
            out.bytes.append(UInt8(ascii: "]"))
        },
        Field(name: "completedAt", schema: { nullable(moment) }) { task, _, out in
            if let completedAt = task.completedAt { out.string(Timestamp.format(completedAt)) } else { out.null() }
        },
        Field(name: "created", schema: { moment }) { task, _, out in out.string(Timestamp.format(task.created)) },
        Field(name: "due", schema: { nullable(["type": "string", "description": "YYYY-MM-DD (all day) or an ISO 8601 moment"]) }) { task, context, out in
            if let text = task.dueText(calendar: context.calendar) { out.string(text) } else { out.null() }
        },
        Field(name: "id", schema: { uuid }) { task, _, out in out.id(task.id) },
        Field(name: "isAllDay", schema: { boolean }) { task, _, out in out.bool(task.isAllDay) },
        Field(name: "isCompleted", schema: { boolean }) { task, _, out in out.bool(task.isCompleted) },
        Field(name: "isFlagged", schema: { boolean }) { task, _, out in out.bool(task.isFlagged) },
        Field(name: "isOverdue", schema: { boolean }) { task, context, out in
            out.bool(task.isOverdue(now: context.now, today: context.today, startOfToday: context.startOfToday))
        },
        Field(name: "list", schema: { nullable(["type": "string"]) }) { task, context, out in
            if let listID = task.listID, let name = context.listNames[listID] { out.string(name) } else { out.null() }
        },
        Field(name: "listId", schema: { nullable(uuid) }) { task, _, out in
            if let listID = task.listID { out.id(listID) } else { out.null() }
        },
        Field(name: "modified", schema: { moment }) { task, _, out in out.string(Timestamp.format(task.modified)) },
        Field(name: "notes", schema: { ["type": "string", "maxLength": TaskRules.maximumNotesLength] }) { task, _, out in out.string(task.notes) },
        Field(name: "number", schema: { ["type": "integer", "minimum": 0] }) { task, _, out in out.int(task.number) },
        Field(name: "order", schema: { ["type": "number"] }) { task, _, out in out.double(task.order) },
        Field(name: "parentId", schema: { nullable(uuid) }) { task, _, out in
            if let parentID = task.parentID { out.id(parentID) } else { out.null() }
        },
        Field(name: "priority", schema: { ["type": "string", "enum": Priority.allCases.map(\.name)] }) { task, _, out in
            out.string(task.priority.name)
        },
        Field(name: "recurrence", schema: { nullable(["type": "string", "examples": ["every 2 weeks"]]) }) { task, _, out in
            if let recurrence = task.recurrence { out.string(recurrence.phrase) } else { out.null() }
        },
        Field(name: "subtaskCount", schema: {
            ["type": "object", "additionalProperties": false, "required": ["active", "total"],
             "properties": ["active": ["type": "integer", "minimum": 0], "total": ["type": "integer", "minimum": 0]]]
        }) { task, context, out in
            let count = context.subtaskCounts[task.id] ?? .zero
            out.bytes += activeKey
            out.int(count.active)
            out.bytes += totalKey
            out.int(count.total)
            out.bytes.append(UInt8(ascii: "}"))
        },
        Field(name: "tags", schema: { ["type": "array", "items": ["type": "string", "maxLength": TaskRules.maximumTagLength]] }) { task, _, out in
            out.strings(task.tags)
        },
        Field(name: "title", schema: { ["type": "string", "minLength": 1, "maxLength": TaskRules.maximumTitleLength] }) { task, _, out in
            out.string(task.title)
        },
    ]

    /// The field names, in order.
    public static var names: [String] { fields.map(\.name) }

    /// Appends the record of `task` as a JSON object.
    public static func write(_ task: TaskItem, _ context: RecordContext, into output: inout JSONOutput) {
        for (index, field) in fields.enumerated() {
            output.bytes += keyBytes[index]
            field.write(task, context, &output)
        }
        output.bytes.append(UInt8(ascii: "}"))
    }

    /// The record of `task` as JSON values (for `--json` output and tests).
    public static func json(_ task: TaskItem, _ context: RecordContext) -> [String: Any] {
        var output = JSONOutput(capacity: 640)
        write(task, context, into: &output)
        return (try? JSONSerialization.jsonObject(with: Data(output.bytes))) as? [String: Any] ?? [:]
    }

    /// The record's JSON schema: every field, all required, nothing else.
    public static var schema: [String: Any] {
        ["type": "object", "additionalProperties": false, "required": names,
         "properties": Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.schema()) })]
    }

    /// `{"alerts":` for the first key, `,"created":` for the others.
    static let keyBytes: [[UInt8]] = fields.enumerated().map { index, field in
        Array(((index == 0 ? "{" : ",") + "\"" + field.name + "\":").utf8)
    }
    private static let activeKey = Array("{\"active\":".utf8)
    private static let totalKey = Array(",\"total\":".utf8)
}

/// Schemas shared by the records.
enum RecordSchema {
    static var uuid: [String: Any] { ["type": "string", "format": "uuid"] }
    static var moment: [String: Any] { ["type": "string", "format": "date-time"] }
    static var boolean: [String: Any] { ["type": "boolean"] }
    static func nullable(_ schema: [String: Any]) -> [String: Any] { ["oneOf": [schema, ["type": "null"]]] }
}

private var uuid: [String: Any] { RecordSchema.uuid }
private var moment: [String: Any] { RecordSchema.moment }
private var boolean: [String: Any] { RecordSchema.boolean }
private func nullable(_ schema: [String: Any]) -> [String: Any] { RecordSchema.nullable(schema) }

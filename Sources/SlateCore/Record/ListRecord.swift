import Foundation

/// The one public record of a list, declared once like `TaskRecord`: the REST API,
/// `--json`, the Slate JSON export and the OpenAPI document all come from `fields`.
public enum ListRecord {
    /// One field of the record.
    public struct Field: Sendable {
        public let name: String
        /// Its JSON schema.
        public let schema: @Sendable () -> [String: Any]
        /// False for what belongs to this database only (the revision): a file leaves it out.
        public var isExported = true
        let write: @Sendable (ListSummary, inout JSONOutput) -> Void
    }

    /// Every field, in the byte order of their names.
    public static let fields: [Field] = [
        Field(name: "activeCount", schema: { ["type": "integer", "minimum": 0] }) { summary, out in out.int(summary.activeCount) },
        Field(name: "color", schema: { ["type": "string", "pattern": "^#[0-9A-F]{6}$"] }) { summary, out in out.string(summary.list.color) },
        Field(name: "created", schema: { RecordSchema.moment }) { summary, out in out.string(Timestamp.format(summary.list.created)) },
        Field(name: "icon", schema: { ["type": "string", "maxLength": TaskRules.maximumIconLength] }) { summary, out in out.string(summary.list.icon) },
        Field(name: "id", schema: { RecordSchema.uuid }) { summary, out in out.id(summary.list.id) },
        Field(name: "name", schema: { ["type": "string", "minLength": 1, "maxLength": TaskRules.maximumListNameLength] }) { summary, out in
            out.string(summary.list.name)
        },
        Field(name: "order", schema: { ["type": "number"] }) { summary, out in out.double(summary.list.order) },
        Field(name: "revision", schema: { ["type": "integer", "minimum": 0] }, isExported: false) { summary, out in out.int(summary.revision) },
    ]

    /// The field names, in order.
    public static var names: [String] { fields.map(\.name) }

    /// Appends the record of a list as a JSON object; `forFile` leaves out what belongs to
    /// this database only (`isExported` false).
    public static func write(_ summary: ListSummary, forFile: Bool = false, into output: inout JSONOutput) {
        // The first field is always written (only `revision`, the last, is left out).
        for (index, field) in fields.enumerated() where !forFile || field.isExported {
            output.bytes += keyBytes[index]
            field.write(summary, &output)
        }
        output.bytes.append(UInt8(ascii: "}"))
    }

    /// The record as JSON values.
    public static func json(_ summary: ListSummary) -> [String: Any] {
        var output = JSONOutput(capacity: 256)
        write(summary, into: &output)
        return (try? JSONSerialization.jsonObject(with: Data(output.bytes))) as? [String: Any] ?? [:]
    }

    /// The record's JSON schema: every field, all required, nothing else.
    public static var schema: [String: Any] {
        ["type": "object", "additionalProperties": false, "required": names,
         "properties": Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.schema()) })]
    }

    private static let keyBytes: [[UInt8]] = fields.enumerated().map { index, field in
        Array(((index == 0 ? "{" : ",") + "\"" + field.name + "\":").utf8)
    }
}

/// List records as a value that writes itself into a response tree.
public struct ListRecordJSON: JSONWritable {
    let summaries: [ListSummary]
    let isArray: Bool

    public init(_ summary: ListSummary) { (summaries, isArray) = ([summary], false) }
    public init(array summaries: [ListSummary]) { (self.summaries, isArray) = (summaries, true) }

    public func writeJSON(into output: inout JSONOutput) {
        if isArray { output.bytes.append(UInt8(ascii: "[")) }
        for (index, summary) in summaries.enumerated() {
            if index > 0 { output.comma() }
            ListRecord.write(summary, into: &output)
        }
        if isArray { output.bytes.append(UInt8(ascii: "]")) }
    }
}

/// Task records as a value that writes itself into a response tree.
public struct TaskRecordJSON: JSONWritable {
    let tasks: [TaskItem]
    /// Records kept by a `TaskRecordCache`, written instead of `tasks` when given.
    let cached: [TaskRecordCache.Entry]?
    let isArray: Bool
    let context: RecordContext

    public init(_ task: TaskItem, _ context: RecordContext) { (tasks, cached, isArray, self.context) = ([task], nil, false, context) }
    public init(array tasks: [TaskItem], _ context: RecordContext) { (self.tasks, cached, isArray, self.context) = (tasks, nil, true, context) }
    /// The records of `records`, as an array or (`isArray` false, one record) an object.
    public init(records: TaskRecords, isArray: Bool = true, _ context: RecordContext) {
        (tasks, cached, self.isArray, self.context) = ([], records.entries, isArray, context)
    }

    public func writeJSON(into output: inout JSONOutput) {
        let count = cached?.count ?? tasks.count
        output.bytes.reserveCapacity(output.bytes.count + 640 * count)
        if isArray { output.bytes.append(UInt8(ascii: "[")) }
        if let cached {
            for (index, entry) in cached.enumerated() {
                if index > 0 { output.comma() }
                TaskRecord.write(entry, context, into: &output)
            }
        } else {
            for (index, task) in tasks.enumerated() {
                if index > 0 { output.comma() }
                TaskRecord.write(task, context, into: &output)
            }
        }
        if isArray { output.bytes.append(UInt8(ascii: "]")) }
    }
}

import Foundation

/// The public JSON shapes of tasks, lists and statistics, shared by the CLI's `--json`
/// and the REST API: stable, documented in docs/cli.md. Tasks and lists are their one
/// record (`TaskRecord`, `ListRecord`). Ids are lower-case UUIDs, moments
/// are ISO 8601 in UTC with milliseconds, all-day dates are `YYYY-MM-DD`.
public enum PublicJSON {
    /// A task: its one public record (`TaskRecord`); `lists` resolves the list's name.
    public static func task(_ task: TaskItem, lists: [UUID: TaskList], now: Date, calendar: Calendar,
                            subtasks: SubtaskCount = .zero) -> [String: Any] {
        TaskRecord.json(task, RecordContext(listNames: lists.mapValues(\.name), now: now, calendar: calendar,
                                            subtaskCounts: [task.id: subtasks]))
    }

    /// A list with its active count: its one public record (`ListRecord`).
    public static func list(_ summary: ListSummary) -> [String: Any] { ListRecord.json(summary) }

    /// The statistics screen's numbers.
    public static func statistics(_ stats: Statistics, calendar: Calendar) -> [String: Any] {
        [
            "total": stats.total, "active": stats.active, "completed": stats.completed,
            "completedToday": stats.completedToday, "overdue": stats.overdue,
            "activeByPriority": Dictionary(uniqueKeysWithValues: stats.activeByPriority.map { ($0.key.name, $0.value) }),
            "byList": stats.byList.map {
                ["listId": $0.listID.map { $0.uuidString.lowercased() } ?? NSNull(), "name": $0.name,
                 "color": $0.color ?? NSNull(), "active": $0.active, "total": $0.total] as [String: Any]
            },
            "meanTimeToCompleteSeconds": stats.meanTimeToComplete ?? NSNull(),
            "completionsPerDay": stats.completionsPerDay.map {
                ["day": Timestamp.formatDay($0.day, calendar: calendar), "count": $0.count] as [String: Any]
            },
        ]
    }

    /// Pretty-printed JSON with sorted keys, ending in a newline.
    public static func render(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            return "null\n"
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

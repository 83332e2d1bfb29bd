import Foundation

/// The public JSON shapes of tasks, lists and statistics, shared by the CLI's `--json`
/// and the REST API: stable, documented in docs/cli.md. Ids are lower-case UUIDs, moments
/// are ISO 8601 in UTC with milliseconds, all-day dates are `YYYY-MM-DD`.
public enum PublicJSON {
    /// A task; `lists` resolves the list's name.
    public static func task(_ task: TaskItem, lists: [UUID: TaskList], now: Date, calendar: Calendar,
                            subtasks: SubtaskCount = .zero) -> [String: Any] {
        let json: [String: Any] = [
            "id": task.id.uuidString.lowercased(),
            "number": task.number,
            "title": task.title,
            "notes": task.notes,
            "priority": task.priority.name,
            "isCompleted": task.isCompleted,
            "completedAt": task.completedAt.map(Timestamp.format) ?? NSNull(),
            "isFlagged": task.isFlagged,
            "due": task.due.map { task.isAllDay ? Timestamp.formatDay($0, calendar: calendar) : Timestamp.format($0) } ?? NSNull(),
            "isAllDay": task.isAllDay,
            "isOverdue": task.isOverdue(now: now, calendar: calendar),
            "listId": task.listID.map { $0.uuidString.lowercased() } ?? NSNull(),
            "list": task.listID.flatMap { lists[$0]?.name } ?? NSNull(),
            "parentId": task.parentID.map { $0.uuidString.lowercased() } ?? NSNull(),
            "order": task.order,
            "tags": task.tags,
            "recurrence": task.recurrence.map(\.phrase) ?? NSNull(),
            "reminderOffset": task.reminderOffset ?? NSNull(),
            "alerts": task.alerts.map(\.text),
            "subtaskCount": ["active": subtasks.active, "total": subtasks.total],
            "created": Timestamp.format(task.created),
            "modified": Timestamp.format(task.modified),
        ]
        return json
    }

    /// A list with its active count.
    public static func list(_ summary: ListSummary) -> [String: Any] {
        [
            "id": summary.list.id.uuidString.lowercased(),
            "name": summary.list.name,
            "color": summary.list.color,
            "icon": summary.list.icon,
            "order": summary.list.order,
            "activeCount": summary.activeCount,
            "created": Timestamp.format(summary.list.created),
        ]
    }

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

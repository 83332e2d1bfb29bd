import Foundation

/// Everything needed to create a task. Only the title is required.
public struct TaskDraft: Sendable, Hashable {
    public var title: String
    public var notes: String
    public var listID: UUID?
    /// Medium from the full form, none from quick entry (features.md).
    public var priority: Priority
    public var due: DueDate?
    public var isFlagged: Bool
    public var tags: [String]
    public var recurrence: Recurrence?
    public var parentID: UUID?
    /// Its alerts; nil gives it the account's default alerts (when it has a due date).
    public var alerts: [TaskAlert]?

    public init(title: String, notes: String = "", listID: UUID? = nil, priority: Priority = .medium,
                due: DueDate? = nil, isFlagged: Bool = false, tags: [String] = [], recurrence: Recurrence? = nil,
                parentID: UUID? = nil, alerts: [TaskAlert]? = nil) {
        self.title = title
        self.notes = notes
        self.listID = listID
        self.priority = priority
        self.due = due
        self.isFlagged = isFlagged
        self.tags = tags
        self.recurrence = recurrence
        self.parentID = parentID
        self.alerts = alerts
    }
}

/// A change to some fields of a task. A nil field is left as it is; for fields that
/// can be cleared, `.some(nil)` clears them.
public struct TaskPatch: Sendable, Hashable {
    public var title: String?
    public var notes: String?
    public var listID: UUID??
    public var priority: Priority?
    public var due: DueDate??
    public var isFlagged: Bool?
    public var isCompleted: Bool?
    public var tags: [String]?
    public var recurrence: Recurrence??
    public var parentID: UUID??
    /// Replaces all its alerts (`[]` removes them).
    public var alerts: [TaskAlert]?

    public init(title: String? = nil, notes: String? = nil, listID: UUID?? = nil, priority: Priority? = nil,
                due: DueDate?? = nil, isFlagged: Bool? = nil, isCompleted: Bool? = nil, tags: [String]? = nil,
                recurrence: Recurrence?? = nil, parentID: UUID?? = nil, alerts: [TaskAlert]? = nil) {
        self.title = title
        self.notes = notes
        self.listID = listID
        self.priority = priority
        self.due = due
        self.isFlagged = isFlagged
        self.isCompleted = isCompleted
        self.tags = tags
        self.recurrence = recurrence
        self.parentID = parentID
        self.alerts = alerts
    }

    /// True when the patch changes nothing.
    public var isEmpty: Bool { self == TaskPatch() }
}

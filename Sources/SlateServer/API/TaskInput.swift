import Foundation
import SlateCore
import SlateHTTP

/// Reads task fields from JSON with the same rules as every other surface.
struct TaskInput {
    static let fields: Set<String> = [
        "title", "notes", "listId", "priority", "due", "isFlagged", "isCompleted", "tags", "recurrence",
        "parentId", "reminderOffset", "alerts",
    ]
    /// The fields an unknown field's error names as accepted: `reminderOffset` is read only to
    /// say what replaced it, and a new task cannot be completed.
    static let listedWhenCreating = fields.subtracting(["reminderOffset", "isCompleted"])
    static let listedWhenChanging = fields.subtracting(["reminderOffset"])

    let body: JSONBody
    let calendar: Calendar
    let now: Date

    /// A `listId` or `parentId` that names nothing of this account is a 404 naming the field.
    func checkReferences(_ slate: Slate) throws {
        if let id = try body.uuid("listId").value { try reference("listId") { _ = try slate.list(id: id) } }
        if let id = try body.uuid("parentId").value { try reference("parentId") { _ = try slate.task(id: id) } }
    }

    func priority() throws -> Priority? {
        guard let name = try body.string("priority").value else {
            if case .null = try body.string("priority") {
                throw HTTPError(.unprocessableContent, code: "invalid_field", message: "'priority' must be \(Priority.acceptedForms); use \"none\" for no priority.", field: "priority")
            }
            return nil
        }
        return try domain { try TaskValues.priority(name) }
    }

    /// SlateCore's one reading of due dates (`TaskValues.due`); null or "none" clears.
    func due() throws -> DueDate?? {
        switch try body.string("due") {
        case .absent: return nil
        case .null: return .some(nil)
        case .value(let text): return .some(try domain { try TaskValues.due(text, now: now, calendar: calendar) })
        }
    }

    /// SlateCore's one reading of repeats (`TaskValues.recurrence`): "every 2 weeks",
    /// "2 weeks", "weekly"; null or "none" clears.
    func recurrence() throws -> Recurrence?? {
        switch try body.string("recurrence") {
        case .absent: return nil
        case .null: return .some(nil)
        case .value(let text): return .some(try domain { try TaskValues.recurrence(text) })
        }
    }

    /// `["15m", "1d@9:00"]` (see `TaskAlert`); absent: unchanged (a new task gets the
    /// account's defaults); null or `[]`: none.
    func alerts() throws -> [TaskAlert]? {
        switch try body.strings("alerts") {
        case .absent: return nil
        case .null: return []
        case .value(let texts): return try domain { try TaskAlert.parseList(texts) }
        }
    }

    /// `reminderOffset` (seconds before the due date) was replaced by `alerts`: a client that
    /// still sends it is told so, rather than having it ignored or silently translated.
    private func refuseReminderOffset() throws {
        guard body.object["reminderOffset"] != nil else { return }
        throw HTTPError(.unprocessableContent, code: "invalid_field",
                        message: "reminderOffset was replaced by alerts: send \"alerts\": [\"15m\"] (or \"due\", \"1d@9:00\", an ISO 8601 moment).",
                        field: "reminderOffset")
    }

    func draft() throws -> TaskDraft {
        var draft = TaskDraft(title: try body.requiredString("title"))
        draft.notes = try body.string("notes").value ?? ""
        draft.listID = try body.uuid("listId").value
        draft.priority = try priority() ?? .medium
        draft.due = try due() ?? nil
        draft.isFlagged = try body.bool("isFlagged").value ?? false
        draft.tags = try body.strings("tags").value ?? []
        draft.recurrence = try recurrence() ?? nil
        draft.parentID = try body.uuid("parentId").value
        try refuseReminderOffset()
        draft.alerts = try alerts()
        if try body.bool("isCompleted").value == true {
            throw HTTPError(.unprocessableContent, code: "invalid_field", message: "A new task cannot be completed; create it, then complete it.", field: "isCompleted")
        }
        return draft
    }

    func patch() throws -> TaskPatch {
        var patch = TaskPatch()
        if case .null = try body.string("title") {
            throw HTTPError(.unprocessableContent, code: "invalid_field", message: "The title cannot be blank.", field: "title")
        }
        patch.title = try body.string("title").value
        if case .null = try body.string("notes") { patch.notes = "" } else { patch.notes = try body.string("notes").value }
        patch.listID = try body.uuid("listId").patch
        patch.priority = try priority()
        patch.due = try due()
        patch.isFlagged = try body.bool("isFlagged").value
        patch.isCompleted = try body.bool("isCompleted").value
        patch.tags = try body.strings("tags").value
        patch.recurrence = try recurrence()
        patch.parentID = try body.uuid("parentId").patch
        try refuseReminderOffset()
        patch.alerts = try alerts()
        return patch
    }
}

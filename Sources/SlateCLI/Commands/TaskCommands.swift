import Foundation
import SlateCore

/// `slate add`, `list`, `show`, `edit`, and the one-word actions on tasks.
enum TaskCommands {
    static let add = CommandSpec(
        name: "add", abstract: "Add a task in one line: title, date, !priority, #list, @tag",
        discussion: """
            Quick entry understands dates (today, fri, next week, in 3 days, 24 dec, on the
            1st, 5pm), repeats (every week, every 2 days, every monday, every month on the
            1st), !priority (!low !medium !high !critical, or ! to !!!!), #List, @tag and
            ^alert (^15m, ^1d@9:00, ^due). Put words in "quotes" to keep them literal. A task
            with a due date gets the account's default alerts unless the line or --alert /
            --no-alerts says otherwise. In a shell, put the line in single quotes: unquoted,
            #Story starts a comment and !high a history expansion.
            Example: slate add 'Storyboard the inciting incident tomorrow 5pm !high #Story ^15m'
            """,
        arguments: [ArgumentSpec(name: "text", help: "The task, in words.", isRepeating: true)],
        options: [
            .value("list", "name", "Put it in this list (overrides #List)."),
            .value("priority", "priority", "none, low, medium, high or critical."),
            .value("due", "date", "When it is due (overrides a date in the text)."),
            .value("notes", "text", "Notes."),
            .flag("flag", "Flag it."),
            .value("tag", "tag", "Add a tag (repeatable).", repeatable: true),
            .value("repeat", "rule", "daily, weekly, monthly, yearly, every 2 weeks…"),
            .value("parent", "task", "Make it a subtask of this task."),
            .value("alert", "when", "Alert: due, 15m, 2h, 1d (before), 1d@9:00, or a date and time such as '2026-12-24 09:00' or 'fri 9am' (repeatable).", repeatable: true),
            .flag("no-alerts", "No alerts, not even the account's defaults."),
        ],
        run: runAdd)

    @Sendable static func runAdd(_ parsed: ParsedCommand, _ session: Session) throws {
        let line = parsed.positionals.joined(separator: " ")
        let entry: QuickEntry
        do {
            entry = try QuickEntryParser(now: session.now, makeCalendar: session.calendarWhenNeeded).parse(line)
        } catch {
            throw SlateError.invalid(field: "text", message: (error as? LocalizedError)?.errorDescription ?? "\(error)")
        }
        let slate = try session.slate()
        var draft = TaskDraft(title: entry.title, notes: entry.notes ?? "", priority: entry.priority ?? .none,
                              due: entry.due, isFlagged: entry.isFlagged, tags: entry.tags, recurrence: entry.recurrence)
        if let name = entry.listName { draft.listID = try slate.requireList(named: name).id }
        if let listID = try session.listID(parsed) { draft.listID = listID }
        if let priority = try session.priority(parsed) { draft.priority = priority }
        if let due = try session.due(parsed) { draft.due = due }
        if let notes = parsed.value("notes") { draft.notes = notes }
        if parsed.flag("flag") { draft.isFlagged = true }
        draft.tags += parsed.allValues("tag")
        if let recurrence = try session.recurrence(parsed) { draft.recurrence = recurrence }
        if let parent = parsed.value("parent") { draft.parentID = try session.task(parent, parsed).id }
        draft.alerts = try alerts(parsed, session) ?? entry.alerts
        let task = try slate.addTask(draft)
        for warning in entry.warnings { session.console.err("note: " + warning + "\n") }
        if session.wantsJSON {
            var json = PublicJSON.task(task, lists: try session.listsByID(), now: session.now, calendar: session.calendar)
            json["warnings"] = entry.warnings
            session.console.out(PublicJSON.render(json))
            return
        }
        session.console.line("Added #\(task.number) “\(task.title)”" + understood(task, lists: try session.listsByID(), session))
    }

    /// `--alert` (repeatable) or `--no-alerts`; nil when neither is given. A moment may be
    /// local (`2026-12-24 09:00`, `fri 9am`), read in the session's zone as `--due` is.
    static func alerts(_ parsed: ParsedCommand, _ session: Session) throws -> [TaskAlert]? {
        let texts = parsed.allValues("alert")
        if parsed.flag("no-alerts") {
            guard texts.isEmpty else { throw UsageError(message: "--alert and --no-alerts cannot be used together.", command: parsed.path) }
            return []
        }
        return texts.isEmpty ? nil : try session.alerts(texts, parsed)
    }

    /// What quick entry understood, shown back: " — due Tomorrow 17:00 · high · Story".
    static func understood(_ task: TaskItem, lists: [UUID: TaskList], _ session: Session) -> String {
        var parts: [String] = []
        if let due = dueWords(task, session) { parts.append(due) }
        if let recurrence = task.recurrence { parts.append(recurrence.phrase) }
        if task.priority != .none { parts.append(session.style.priority(task.priority) + " " + task.priority.name) }
        if let list = task.listID.flatMap({ lists[$0] }) { parts.append(session.style.color("● ", hex: list.color) + list.name) }
        if !task.tags.isEmpty { parts.append(task.tags.map { "@" + $0 }.joined(separator: " ")) }
        if task.isFlagged { parts.append("flagged") }
        if !task.alerts.isEmpty { parts.append("alert " + TaskDetail.alerts(task, session.dueFormatter).joined(separator: ", ")) }
        return parts.isEmpty ? "" : " — " + parts.joined(separator: " · ")
    }

    static let show = CommandSpec(
        name: "show", abstract: "Show everything about one task",
        arguments: [ArgumentSpec(name: "task", help: "The task's number or id prefix.")],
        run: { parsed, session in
            let slate = try session.slate()
            let task = try session.task(parsed.positionals[0], parsed)
            let lists = try session.listsByID()
            let subtasks = try slate.tasks(TaskQuery(parentID: task.id, sort: .manual))
            if session.wantsJSON {
                let counts = try slate.subtaskCounts(of: [task.id] + subtasks.map(\.id))
                var json = PublicJSON.task(task, lists: lists, now: session.now, calendar: session.calendar, subtasks: counts[task.id] ?? .zero)
                json["subtasks"] = subtasks.map {
                    PublicJSON.task($0, lists: lists, now: session.now, calendar: session.calendar, subtasks: counts[$0.id] ?? .zero)
                }
                session.console.out(PublicJSON.render(json))
                return
            }
            TaskDetail(session: session, lists: lists).print(task, subtasks: subtasks, parent: try task.parentID.map { try slate.task(id: $0).model })
        })

    static let edit = CommandSpec(
        name: "edit", abstract: "Change a task's fields",
        arguments: [ArgumentSpec(name: "task", help: "The task's number or id prefix.")],
        options: [
            .value("title", "text", "A new title."),
            .value("notes", "text", "New notes (\"\" to clear)."),
            .value("priority", "priority", "none, low, medium, high or critical."),
            .value("due", "date", "A new due date, or none."),
            .value("list", "name", "Move it to this list, or none for the Inbox."),
            .flag("flag", "Flag it."),
            .flag("unflag", "Remove the flag."),
            .value("tags", "tags", "Replace the tags (comma-separated; \"\" to clear)."),
            .value("repeat", "rule", "daily, weekly, every 2 weeks…, or none."),
            .value("parent", "task", "Make it a subtask of this task, or none."),
            .value("alert", "when", "Replace the alerts: due, 15m, 1d@9:00, or a date and time (repeatable).", repeatable: true),
            .flag("no-alerts", "Remove every alert."),
        ],
        run: { parsed, session in
            let slate = try session.slate()
            let task = try session.task(parsed.positionals[0], parsed)
            if parsed.flag("flag") && parsed.flag("unflag") {
                throw UsageError(message: "--flag and --unflag cannot be used together.", command: parsed.path)
            }
            var patch = TaskPatch()
            patch.title = parsed.value("title")
            patch.notes = parsed.value("notes")
            patch.priority = try session.priority(parsed)
            patch.due = try session.due(parsed)
            patch.listID = try session.listID(parsed)
            if parsed.flag("flag") { patch.isFlagged = true }
            if parsed.flag("unflag") { patch.isFlagged = false }
            patch.tags = parsed.value("tags").map { $0.split(separator: ",").map(String.init) }
            patch.recurrence = try session.recurrence(parsed)
            if let parent = parsed.value("parent") {
                patch.parentID = parent.lowercased() == "none" ? .some(nil) : .some(try session.task(parent, parsed).id)
            }
            patch.alerts = try alerts(parsed, session)
            guard !patch.isEmpty else {
                throw UsageError(message: "nothing to change: give at least one option, such as --title or --due.", command: parsed.path)
            }
            let updated = try slate.updateTask(task.id, patch)
            if session.wantsJSON {
                session.console.out(PublicJSON.render(PublicJSON.task(updated, lists: try session.listsByID(), now: session.now, calendar: session.calendar,
                                                                  subtasks: try slate.subtaskCounts(of: [updated.id])[updated.id] ?? .zero)))
            } else if updated == task {
                // An edit that changes nothing writes nothing (Slate.updateTask): say so.
                session.console.line("#\(updated.number) “\(updated.title)” already has those values; nothing changed.")
            } else {
                session.console.line("Updated #\(updated.number) “\(updated.title)”" + understood(updated, lists: try session.listsByID(), session))
            }
        },
        unexpectedArgumentsHint: { positionals in
            // `slate edit 3 Buy oat milk`: a title without --title. Only after a task reference
            // (`slate edit Buy oat milk` lacks the task instead).
            let task = positionals[0]
            let namesATask = !task.isEmpty && (task.drop(while: { $0 == "#" }).allSatisfy(\.isNumber)
                || (task.count >= 4 && task.allSatisfy { $0.isHexDigit || $0 == "-" }))
            guard namesATask else { return nil }
            return "A new title goes with --title: --title \(ArgumentParser.shellQuoted(positionals.dropFirst().joined(separator: " ")))."
        })

    /// `done`, `reopen`, `flag`, `unflag`, `delete`: one action on one or more tasks, as one change.
    ///
    /// `unchanged` says, for a task the action leaves as it was (completing a completed one),
    /// what to print instead of the verb: "#3 “Budget” was already completed".
    ///
    /// `perform` says what the action did beyond the tasks named (`ActionOutcome`), said
    /// after the rows or on them.
    static func action(_ name: String, _ abstract: String, verb: String, unchanged: (@Sendable (TaskItem) -> String?)? = nil,
                       _ perform: @escaping @Sendable (Slate, [TaskItem]) throws -> ActionOutcome) -> CommandSpec {
        CommandSpec(
            name: name, abstract: abstract,
            arguments: [ArgumentSpec(name: "task", help: "Task numbers or id prefixes.", isRepeating: true)],
            run: { parsed, session in
                let tasks = try session.tasks(parsed)
                let outcome = try perform(try session.slate(), tasks)
                let alsoTaken = outcome.alsoTaken
                if session.wantsJSON {
                    let ids = tasks.map { $0.id.uuidString.lowercased() }
                    var json: [String: Any] = ["action": name, "ids": ids, "numbers": tasks.map(\.number)]
                    if !outcome.next.isEmpty {
                        json["next"] = tasks.compactMap { task in
                            outcome.next[task.id].map { next -> [String: Any] in
                                ["after": task.number, "id": next.id.uuidString.lowercased(), "number": next.number,
                                 "due": next.dueText(calendar: session.calendar) ?? NSNull(), "isAllDay": next.isAllDay]
                            }
                        }
                    }
                    session.console.out(PublicJSON.render(json))
                    return
                }
                for task in tasks {
                    if let state = unchanged?(task) {
                        session.console.line("#\(task.number) “\(task.title)” \(state)")
                    } else {
                        session.console.line("\(verb) #\(task.number) “\(task.title)”" + (outcome.next[task.id].map { nextOccurrence($0, session) } ?? ""))
                    }
                }
                if alsoTaken > 0 {
                    session.console.line("Deleted \(alsoTaken) subtask\(alsoTaken == 1 ? "" : "s") with \(tasks.count == 1 ? "it" : "them").")
                }
                if name == "delete" { session.console.line(session.style.dim("Undo with: slate undo")) }
            })
    }

    /// What an action did beyond the tasks named: the subtasks a deletion took with them,
    /// and the next occurrence each completed repeating task got.
    struct ActionOutcome {
        var alsoTaken = 0
        var next: [UUID: TaskItem] = [:]
    }

    /// " — next: #13 due Wed": where a completed repeating task goes on.
    private static func nextOccurrence(_ next: TaskItem, _ session: Session) -> String {
        " — next: #\(next.number)" + (dueWords(next, session).map { " " + $0 } ?? "")
    }

    /// "due Tomorrow 17:00"; nil without a date (and no calendar made for it).
    private static func dueWords(_ task: TaskItem, _ session: Session) -> String? {
        task.due(in: session.calendar).map { "due " + session.dueFormatter.string($0, isAllDay: task.isAllDay) }
    }

    static let done = action("done", "Complete tasks", verb: "Completed", unchanged: { $0.isCompleted ? "was already completed" : nil }) {
        ActionOutcome(next: try $0.complete($1.map(\.id)).next)
    }
    static let reopen = action("reopen", "Mark completed tasks as not done", verb: "Reopened", unchanged: { $0.isCompleted ? nil : "was not completed" }) {
        _ = try $0.setCompleted($1.map(\.id), false)
        return ActionOutcome()
    }
    static let flag = action("flag", "Flag tasks", verb: "Flagged", unchanged: { $0.isFlagged ? "was already flagged" : nil }) {
        _ = try $0.setFlagged($1.map(\.id), true)
        return ActionOutcome()
    }
    static let unflag = action("unflag", "Remove the flag from tasks", verb: "Unflagged", unchanged: { $0.isFlagged ? nil : "was not flagged" }) {
        _ = try $0.setFlagged($1.map(\.id), false)
        return ActionOutcome()
    }
    static let delete = action("delete", "Delete tasks and their subtasks", verb: "Deleted") { slate, tasks in
        // The subtasks that went with them: the deletion's count beyond the tasks named.
        ActionOutcome(alsoTaken: max(0, try slate.deleteTasks(tasks.map(\.id)) - Set(tasks.map(\.id)).count))
    }

    static let move = CommandSpec(
        name: "move", abstract: "Reorder a task within its list",
        arguments: [ArgumentSpec(name: "task", help: "The task to move.")],
        options: [.value("before", "task", "Put it just before this task."), .flag("end", "Put it at the end.")],
        run: { parsed, session in
            let slate = try session.slate()
            let task = try session.task(parsed.positionals[0], parsed)
            let before = try parsed.value("before").map { try session.task($0, parsed) }
            guard before != nil || parsed.flag("end") else {
                throw UsageError(message: "say where: --before <task> or --end.", command: parsed.path)
            }
            try slate.moveTask(task.id, before: before?.id)
            session.console.line("Moved #\(task.number) “\(task.title)” " + (before.map { "before #\($0.number)" } ?? "to the end"))
        })

    static let clearCompleted = CommandSpec(
        name: "clear-completed", abstract: "Delete every completed task, in one list or everywhere",
        options: [.value("list", "name", "Only this list.")],
        run: { parsed, session in
            let slate = try session.slate()
            let listID = try parsed.value("list").map { try slate.requireList(named: $0).id }
            let count = try slate.clearCompleted(in: listID)
            if session.wantsJSON {
                session.console.out(PublicJSON.render(["deleted": count]))
            } else {
                session.console.line(count == 0 ? "No completed tasks to clear." : "Cleared \(count) completed task\(count == 1 ? "" : "s"). Undo with: slate undo")
            }
        })
}

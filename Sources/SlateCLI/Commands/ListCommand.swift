import Foundation
import SlateCore

/// `slate list`: the board, a list, or a smart list, filtered, searched and sorted.
enum ListCommand {
    static let defaultLimit = 100

    static let spec = CommandSpec(
        name: "list", abstract: "Show tasks (active ones, most important first)",
        discussion: "Shows at most \(defaultLimit) tasks unless --limit or --all says otherwise.",
        options: [
            .value("list", short: "l", "name", "Only this list."),
            .flag("today", "Due today or overdue."),
            .flag("scheduled", "With a due date."),
            .flag("flagged", "Flagged."),
            .flag("overdue", "Overdue."),
            .flag("completed", "Completed."),
            .flag("inbox", "Without a list."),
            .flag("all-tasks", "Every task, in every list (the default)."),
            .value("status", "status", "active (default), completed or all."),
            .value("search", short: "s", "text", "Words in the title or notes."),
            .value("priority", "priority", "Only this priority."),
            .value("tag", "tag", "Only tasks with this tag."),
            .value("sort", "order", "default, priority, due, created, title or manual."),
            .value("limit", "n", "Show at most n tasks."),
            .flag("all", "Show every matching task."),
        ],
        run: run)

    @Sendable static func run(_ parsed: ParsedCommand, _ session: Session) throws {
        let slate = try session.slate()
        var query = TaskQuery(status: .active)
        let scopes = ["today", "scheduled", "flagged", "overdue", "completed", "inbox", "all-tasks"].filter(parsed.flag)
            + (parsed.value("list") != nil ? ["list"] : [])
        guard scopes.count <= 1 else {
            throw UsageError(message: "choose one of --\(scopes.joined(separator: ", --")).", command: parsed.path)
        }
        var scopeName = "All tasks"
        switch scopes.first {
        case "list":
            let list = try slate.requireList(named: parsed.value("list")!)
            query.scope = .list(list.id)
            scopeName = list.name
        case let flag?:
            // The smart lists are SlateCore's (the API's scope=, the web app's sidebar); `all-tasks` is `all`.
            if let smart = SmartList.named(flag == "all-tasks" ? "all" : flag) {
                query.scope = smart.scope
                query.sort = smart.sort
                query.status = smart.status
                if smart.scope != .all { scopeName = smart.title }
            }
        case nil: break
        }
        if let status = try session.choice(parsed, option: "status", TaskQuery.Status.self) { query.status = status }
        query.search = parsed.value("search")
        query.priority = try session.priority(parsed)
        query.tag = parsed.value("tag")
        if let sort = try session.choice(parsed, option: "sort", TaskQuery.Sort.self) { query.sort = sort }
        if parsed.flag("all") && parsed.value("limit") != nil {
            throw UsageError(message: "--all and --limit cannot be used together.", command: parsed.path)
        }
        query.limit = parsed.flag("all") ? nil : (try session.positiveInteger(parsed, option: "limit") ?? defaultLimit)

        let tasks = try slate.tasks(query)
        let total = query.limit != nil && tasks.count == query.limit ? try slate.count(query) : tasks.count
        let lists = try session.listsByID()
        if session.wantsJSON {
            let json: [String: Any] = [
                "tasks": try { () throws -> [[String: Any]] in
                    let counts = try slate.subtaskCounts(of: tasks.map(\.id))
                    return tasks.map { PublicJSON.task($0, lists: lists, now: session.now, calendar: session.calendar, subtasks: counts[$0.id] ?? .zero) }
                }(),
                "total": total,
            ]
            session.console.out(PublicJSON.render(json))
            return
        }
        let console = session.console
        // The heading says what was asked: the scope, and the search when there is one.
        let searched = query.search.map { " matching “\($0)”" } ?? ""
        console.line(session.style.bold(scopeName) + searched + session.style.dim(" · \(total) task\(total == 1 ? "" : "s")"))
        guard !tasks.isEmpty else {
            console.line(emptyMessage(query, parsed: parsed))
            return
        }
        let renderer = TaskRenderer(session: session, lists: lists)
        let active = tasks.filter { !$0.isCompleted }
        let completed = tasks.filter(\.isCompleted)
        if query.status == .all, !active.isEmpty, !completed.isEmpty {
            let rows = renderer.rows(active + completed)
            rows.prefix(active.count).forEach(console.line)
            console.line(session.style.dim("Completed"))
            rows.dropFirst(active.count).forEach(console.line)
        } else {
            renderer.rows(tasks).forEach(console.line)
        }
        if total > tasks.count {
            console.line(session.style.dim("Showing \(tasks.count) of \(total). Use --all, or --limit <n>."))
        }
        if query.status == .active, query.scope != .completed {
            var completedQuery = query
            completedQuery.status = .completed
            completedQuery.limit = nil
            let done = try slate.count(completedQuery)
            if done > 0 { console.line(session.style.dim("\(done) completed hidden; show them with --status all.")) }
        }
    }

    /// "No tasks match “woody”." or a hint of what to do.
    static func emptyMessage(_ query: TaskQuery, parsed: ParsedCommand) -> String {
        if let search = query.search, !search.isEmpty { return "No tasks match “\(search)”." }
        if query.priority != nil || query.tag != nil { return "No tasks match these filters." }
        switch query.scope {
        case .overdue: return "Nothing overdue."
        case .today: return "Nothing due today."
        case .flagged: return "No flagged tasks — flag one with: slate flag <task>"
        case .completed: return "No completed tasks."
        default: return "No tasks — add one with: slate add <text>"
        }
    }
}

/// `slate show`: one task, every field.
struct TaskDetail {
    let session: Session
    let lists: [UUID: TaskList]

    /// The task's alerts as people say them ("15 minutes before"; a moment as a date).
    static func alerts(_ task: TaskItem, _ formatter: DueFormatter) -> [String] {
        task.alerts.map { alert in
            if let phrase = alert.phrase(isAllDay: task.isAllDay) { return phrase }
            guard case .at(let moment) = alert.trigger else { return alert.text }
            return "at " + formatter.full(moment)
        }
    }

    func print(_ task: TaskItem, subtasks: [TaskItem], parent: TaskItem?) {
        let style = session.style
        let console = session.console
        let formatter = session.dueFormatter
        console.line(style.bold("#\(task.number) ") + (task.isCompleted ? style.completed(task.title) : style.bold(task.title)))
        var fields: [(String, String)] = []
        fields.append(("Status", task.isCompleted ? "completed " + (task.completedAt.map { formatter.full($0) } ?? "") : "active"))
        if let due = task.due(in: session.calendar) {
            let text = formatter.string(due, isAllDay: task.isAllDay) + " (" + formatter.full(due, isAllDay: task.isAllDay) + ")"
            fields.append(("Due", task.isOverdue(now: session.now, calendar: session.calendar) ? style.red(text + " — overdue") : text))
        }
        if let recurrence = task.recurrence { fields.append(("Repeats", recurrence.phrase)) }
        if !task.alerts.isEmpty { fields.append(("Alerts", Self.alerts(task, formatter).joined(separator: ", "))) }
        fields.append(("Priority", task.priority == .none ? "none" : style.priority(task.priority) + " " + task.priority.name))
        if let list = task.listID.flatMap({ lists[$0] }) {
            fields.append(("List", style.color("● ", hex: list.color) + list.name))
        } else {
            fields.append(("List", "Inbox"))
        }
        if task.isFlagged { fields.append(("Flagged", style.yellow("⚑") + " yes")) }
        if !task.tags.isEmpty { fields.append(("Tags", task.tags.map { "@" + $0 }.joined(separator: " "))) }
        if let parent { fields.append(("Subtask of", "#\(parent.number) \(parent.title)")) }
        fields.append(("Created", formatter.full(task.created)))
        fields.append(("Modified", formatter.full(task.modified)))
        fields.append(("Id", task.id.uuidString.lowercased()))
        for (name, value) in fields { console.line("  " + style.dim(pad(name, to: 11)) + value) }
        if !task.notes.isEmpty {
            console.line("")
            for line in task.notes.split(separator: "\n", omittingEmptySubsequences: false) { console.line("  " + line) }
        }
        if !subtasks.isEmpty {
            console.line("")
            console.line(style.dim("  Subtasks"))
            TaskRenderer(session: session, lists: lists).rows(subtasks).forEach(console.line)
        }
    }
}

import Foundation
import SlateCore

/// `slate lists` and its subcommands.
enum ListsCommands {
    static let spec = CommandSpec(
        name: "lists", abstract: "Show lists with their active counts; add, rename, edit, move, delete",
        options: [.value("sort", "order", "manual (default) or name.")],
        subcommands: [add, rename, edit, move, delete],
        run: { parsed, session in
            let sort = try session.choice(parsed, option: "sort", ListSort.self) ?? .manual
            let summaries = try session.slate().lists(sortedBy: sort)
            if session.wantsJSON {
                session.console.out(PublicJSON.render(summaries.map(PublicJSON.list)))
                return
            }
            guard !summaries.isEmpty else {
                session.console.line("No lists — add one with: slate lists add <name> --color #RRGGBB")
                return
            }
            let width = summaries.map { displayWidth($0.list.name) }.max() ?? 0
            let countWidth = summaries.map { String($0.activeCount).count }.max() ?? 1
            for summary in summaries {
                let list = summary.list
                let count = String(summary.activeCount)
                session.console.line("  " + session.style.color("●", hex: list.color) + " " + pad(list.name, to: width)
                    + "  " + String(repeating: " ", count: countWidth - count.count) + count
                    + session.style.dim("  \(list.color)  \(list.icon)"))
            }
        })

    static let listArgument = ArgumentSpec(name: "name", help: "The list's name.")

    static let add = CommandSpec(
        name: "add", abstract: "Add a list",
        arguments: [listArgument],
        options: [.value("color", "#RRGGBB", "Its colour (default \(TaskList.defaultColor))."),
                  .value("icon", "name", "Its icon, such as film or music.note.")],
        run: { parsed, session in
            let list = try session.slate().createList(name: parsed.positionals[0], color: session.color(parsed), icon: session.icon(parsed))
            report(session, list, "Added list")
        })

    static let rename = CommandSpec(
        name: "rename", abstract: "Rename a list",
        arguments: [listArgument, ArgumentSpec(name: "new-name", help: "The new name.")],
        run: { parsed, session in
            let slate = try session.slate()
            let list = try slate.requireList(named: parsed.positionals[0])
            report(session, try slate.updateList(list.id, name: parsed.positionals[1]), "Renamed list to")
        })

    static let edit = CommandSpec(
        name: "edit", abstract: "Change a list's colour or icon",
        arguments: [listArgument],
        options: [.value("color", "#RRGGBB", "A new colour."), .value("icon", "name", "A new icon.")],
        run: { parsed, session in
            guard parsed.value("color") != nil || parsed.value("icon") != nil else {
                throw UsageError(message: "nothing to change: give --color or --icon.", command: parsed.path)
            }
            let slate = try session.slate()
            let list = try slate.requireList(named: parsed.positionals[0])
            report(session, try slate.updateList(list.id, color: session.color(parsed), icon: session.icon(parsed)), "Updated list")
        })

    static let move = CommandSpec(
        name: "move", abstract: "Reorder a list",
        arguments: [listArgument],
        options: [.value("before", "name", "Put it just before this list."), .flag("end", "Put it at the end.")],
        run: { parsed, session in
            let slate = try session.slate()
            let list = try slate.requireList(named: parsed.positionals[0])
            let before = try parsed.value("before").map { try slate.requireList(named: $0) }
            guard before != nil || parsed.flag("end") else {
                throw UsageError(message: "say where: --before <name> or --end.", command: parsed.path)
            }
            try slate.moveList(list.id, before: before?.id)
            session.console.line("Moved list \(list.name) " + (before.map { "before \($0.name)" } ?? "to the end"))
        })

    static let delete = CommandSpec(
        name: "delete", abstract: "Delete a list, keeping or deleting its tasks",
        arguments: [listArgument],
        options: [.flag("keep-tasks", "Keep its tasks (they move to the Inbox)."),
                  .flag("delete-tasks", "Delete its tasks too.")],
        run: { parsed, session in
            let keep = parsed.flag("keep-tasks"), drop = parsed.flag("delete-tasks")
            guard !(keep && drop) else {
                throw UsageError(message: "--keep-tasks and --delete-tasks cannot be used together.", command: parsed.path)
            }
            let slate = try session.slate()
            let list = try slate.requireList(named: parsed.positionals[0])
            let count = try slate.count(TaskQuery(scope: .list(list.id)))   // active and completed
            // A list without a task needs no choice.
            guard keep || drop || count == 0 else {
                throw UsageError(message: "say what happens to its tasks: --keep-tasks or --delete-tasks.", command: parsed.path)
            }
            try slate.deleteList(list.id, tasks: keep ? .keepTasks : .deleteTasks)
            if session.wantsJSON {
                session.console.out(PublicJSON.render(["deleted": list.id.uuidString.lowercased(), "tasks": keep ? "kept" : "deleted", "taskCount": count]))
            } else {
                let what = count == 0 ? "it had no tasks" : "its \(count) task\(count == 1 ? " was" : "s were") \(keep ? "moved to the Inbox" : "deleted")"
                session.console.line("Deleted list \(list.name); \(what). Undo with: slate undo")
            }
        })

    static func report(_ session: Session, _ list: TaskList, _ verb: String) {
        if session.wantsJSON, let summary = try? session.slate().lists().first(where: { $0.list.id == list.id }) {
            session.console.out(PublicJSON.render(PublicJSON.list(summary)))
        } else {
            session.console.line("\(verb) " + session.style.color("● ", hex: list.color) + list.name)
        }
    }
}

import Foundation
import SlateCore

/// `slate stats`, `undo`, `redo`, `sample`, `export`, `import`.
enum BoardCommands {
    static let stats = CommandSpec(
        name: "stats", abstract: "Totals, breakdowns and completions per day",
        run: { _, session in
            let stats = try session.slate().statistics()
            if session.wantsJSON {
                session.console.out(PublicJSON.render(PublicJSON.statistics(stats, calendar: session.calendar)))
                return
            }
            StatisticsView(session: session).print(stats)
        })

    static let undo = CommandSpec(
        name: "undo", abstract: "Undo the last change",
        run: { _, session in
            let label = try session.slate().undo()
            if session.wantsJSON { return session.console.out(PublicJSON.render(["undone": label.map { $0 as Any } ?? NSNull()])) }
            session.console.line(label.map { "Undid: \($0)" } ?? "Nothing to undo.")
        })

    static let redo = CommandSpec(
        name: "redo", abstract: "Redo the last undone change",
        run: { _, session in
            let label = try session.slate().redo()
            if session.wantsJSON { return session.console.out(PublicJSON.render(["redone": label.map { $0 as Any } ?? NSNull()])) }
            session.console.line(label.map { "Redid: \($0)" } ?? "Nothing to redo.")
        })

    static let sample = CommandSpec(
        name: "sample", abstract: "Load the sample “Toy Story 5” production board",
        discussion: "Does nothing if you have lists already.",
        run: { _, session in
            let loaded = try session.slate().loadSampleBoard()
            if session.wantsJSON { return session.console.out(PublicJSON.render(["loaded": loaded])) }
            session.console.line(loaded ? "Loaded the sample production board: 5 lists, 8 tasks. Try: slate list" : "You have lists already; the sample board was not loaded.")
        })

    static let export = CommandSpec(
        name: "export", abstract: "Write every list and task in a file format",
        options: [
            .value("format", "format", "json (default), ics, todotxt or taskwarrior."),
            .value("output", short: "o", "file", "Write to this file instead of standard output."),
        ],
        run: { parsed, session in
            let format = try session.choice(parsed, option: "format", TransferFormat.self) ?? .json
            let data = try session.slate().export(format)
            if let path = parsed.value("output") {
                if FileReason.isFolder(path) {
                    throw SlateError.invalid(field: "output", message: "Cannot write \(path): it is a folder; give a file's path.")
                }
                do {
                    try data.write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw SlateError.invalid(field: "output", message: "Cannot write \(path): \(FileReason.of(error)).")
                }
                session.console.err("Exported to \(path).\n")
            } else {
                session.console.out(String(decoding: data, as: UTF8.self))
            }
        })

    static let `import` = CommandSpec(
        name: "import", abstract: "Add lists and tasks from a file (all or nothing)",
        discussion: "Reads Slate JSON, iCalendar (.ics), todo.txt or Taskwarrior JSON; the format is detected unless --format says it.",
        arguments: [ArgumentSpec(name: "file", help: "The file to read, or - for standard input.")],
        options: [.value("format", "format", "json, ics, todotxt or taskwarrior.")],
        run: { parsed, session in
            let format = try session.choice(parsed, option: "format", TransferFormat.self)
            let path = parsed.positionals[0]
            let handle: FileHandle
            if path == "-" {
                handle = FileHandle.standardInput
            } else {
                if FileReason.isFolder(path) {
                    throw SlateError.invalid(field: "file", message: "Cannot read \(path): it is a folder; give a file's path.")
                }
                guard let file = FileHandle(forReadingAtPath: path) else { throw SlateError.notFound("file at \(path)") }
                handle = file
            }
            // One byte past the limit is enough to refuse the file (importData says how).
            var data = Data()
            do {
                while data.count <= TransferFormat.maximumImportBytes,
                      let chunk = try handle.read(upToCount: min(1 << 20, TransferFormat.maximumImportBytes + 1 - data.count)),
                      !chunk.isEmpty {
                    data += chunk
                }
            } catch {
                throw SlateError.invalid(field: "file", message: "Cannot read \(path): \(FileReason.of(error)).")
            }
            let summary = try session.slate().importData(data, format: format)
            if session.wantsJSON {
                session.console.out(PublicJSON.render(["listsCreated": summary.listsCreated, "tasksCreated": summary.tasksCreated, "tasksUpdated": summary.tasksUpdated]))
            } else {
                session.console.line("Imported \(summary.tasksCreated) new task\(summary.tasksCreated == 1 ? "" : "s"), updated \(summary.tasksUpdated), created \(summary.listsCreated) list\(summary.listsCreated == 1 ? "" : "s").")
            }
        })
}

/// Why a file could not be read or written, in words: Foundation's own description on
/// Linux is "(NSCocoaErrorDomain error 512.)" or a dump of its user info.
enum FileReason {
    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The system's reason (strerror) when the error carries one, else Foundation's description.
    static func of(_ error: Error) -> String {
        let error = error as NSError
        for candidate in [error, error.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code))).lowercased()
        }
        if error.code == NSFileWriteNoPermissionError || error.code == NSFileReadNoPermissionError { return "permission denied" }
        if error.code == NSFileNoSuchFileError || error.code == NSFileReadNoSuchFileError { return "no such file or folder" }
        if error.code == NSFileWriteOutOfSpaceError { return "the disk is full" }
        return error.localizedDescription
    }
}

/// The statistics screen in a terminal, with bar charts.
struct StatisticsView {
    let session: Session

    func print(_ stats: Statistics) {
        let console = session.console
        let style = session.style
        console.line(style.bold("Tasks"))
        for (name, value) in [("All", stats.total), ("Active", stats.active), ("Completed", stats.completed),
                              ("Completed today", stats.completedToday), ("Overdue", stats.overdue)] {
            let number = name == "Overdue" && value > 0 ? style.red(String(value)) : String(value)
            console.line("  " + pad(name, to: 17) + number)
        }
        if let mean = stats.meanTimeToComplete { console.line("  " + pad("Time to complete", to: 17) + Self.duration(mean) + " on average") }
        console.line("")
        console.line(style.bold("Active by priority"))
        let maximum = max(1, stats.activeByPriority.values.max() ?? 1)
        for priority in Priority.allCases.reversed() {
            let count = stats.activeByPriority[priority] ?? 0
            console.line("  " + pad(priority.name, to: 10) + pad(String(count), to: 5) + bar(count, of: maximum, width: 30, colored: { styledBar($0, priority) }))
        }
        console.line("")
        console.line(style.bold("By list") + style.dim("  (active / all)"))
        let nameWidth = stats.byList.map(\.name.count).max() ?? 0
        let listMax = max(1, stats.byList.map(\.active).max() ?? 1)
        for list in stats.byList {
            let dot = list.color.map { style.color("●", hex: $0) } ?? "○"
            console.line("  \(dot) " + pad(list.name, to: nameWidth) + "  " + pad("\(list.active) / \(list.total)", to: 9)
                         + bar(list.active, of: listMax, width: 24, colored: { text in list.color.map { style.color(text, hex: $0) } ?? text }))
        }
        console.line("")
        let days = stats.completionsPerDay
        console.line(style.bold("Completed per day") + style.dim("  (last \(days.count) days)"))
        console.line("  " + sparkline(days.map(\.count)))
        if let first = days.first?.day {
            let formatter = session.dueFormatter
            let left = formatter.full(first, isAllDay: true), right = "today"
            console.line(style.dim("  " + left + String(repeating: " ", count: max(1, days.count - left.count - right.count)) + right))
        }
    }

    private func styledBar(_ text: String, _ priority: Priority) -> String {
        switch priority {
        case .critical: session.style.red(text)
        case .high: session.style.color(text, hex: "#FF9F43")
        case .medium: session.style.yellow(text)
        default: session.style.dim(text)
        }
    }

    private func bar(_ value: Int, of maximum: Int, width: Int, colored: (String) -> String) -> String {
        let length = value == 0 ? 0 : max(1, value * width / maximum)
        return colored(String(repeating: "█", count: length))
    }

    /// One character per day, from ▁ (none) to █ (the busiest day).
    private func sparkline(_ values: [Int]) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        let maximum = max(1, values.max() ?? 1)
        return String(values.map { $0 == 0 ? "·" : blocks[min(blocks.count - 1, $0 * (blocks.count - 1) / maximum)] })
    }

    static func duration(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<3600: return "\(Int(seconds / 60)) min"
        case ..<86_400: return String(format: "%.1f h", seconds / 3600)
        default: return String(format: "%.1f days", seconds / 86_400)
        }
    }
}

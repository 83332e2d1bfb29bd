import Foundation

/// Writes `--help` text from the same declarations the parser uses.
struct HelpRenderer {
    let globalOptions: [OptionSpec]

    func usage(_ command: CommandSpec, path: [String]) -> String {
        var parts = ["slate"] + path
        if !command.subcommands.isEmpty && command.run == nil {
            parts.append("<command>")
        } else {
            if !command.options.isEmpty { parts.append("[options]") }
            parts += command.arguments.map(\.usage)
        }
        return parts.joined(separator: " ")
    }

    func help(_ command: CommandSpec, path: [String], isRoot: Bool) -> String {
        var lines: [String] = []
        lines.append(isRoot ? "slate — \(command.abstract)" : command.abstract)
        lines.append("")
        lines.append("Usage: \(usage(command, path: path))")
        if let discussion = command.discussion {
            lines.append("")
            lines.append(discussion)
        }
        section("Commands:", command.subcommands.map { ($0.name, $0.abstract) }, into: &lines)
        section("Arguments:", command.arguments.map { ($0.usage, $0.help) }, into: &lines)
        // Options and global options share one column width, so they line up.
        let width = ((command.options + globalOptions).map(\.synopsis.count).max() ?? 0) + 2
        section("Options:", command.options.map { ($0.synopsis, $0.help) }, width: width, into: &lines)
        section("Global options:", globalOptions.map { ($0.synopsis, $0.help) }, width: width, into: &lines)
        if isRoot {
            lines.append("")
            lines.append("Exit codes:")
            lines.append("  0  success")
            lines.append("  1  not found, or a rule refused the change (nothing was written)")
            lines.append("  2  the command line is wrong (unknown command or option, bad value)")
            lines.append("")
            lines.append("Tasks are named by their number (12 or #12) or the start of their id.")
            lines.append("Run 'slate <command> --help' for a command's options.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A titled two-column table: names padded to one width, then their help.
    private func section(_ title: String, _ rows: [(String, String)], width: Int? = nil, into lines: inout [String]) {
        guard !rows.isEmpty else { return }
        let width = width ?? (rows.map(\.0.count).max() ?? 0) + 2
        lines.append("")
        lines.append(title)
        for (name, help) in rows { lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + help) }
    }
}

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
        if !command.subcommands.isEmpty {
            lines.append("")
            lines.append("Commands:")
            let width = (command.subcommands.map(\.name.count).max() ?? 0) + 2
            for sub in command.subcommands {
                lines.append("  " + sub.name.padding(toLength: width, withPad: " ", startingAt: 0) + sub.abstract)
            }
        }
        if !command.arguments.isEmpty {
            lines.append("")
            lines.append("Arguments:")
            let width = (command.arguments.map(\.usage.count).max() ?? 0) + 2
            for argument in command.arguments {
                lines.append("  " + argument.usage.padding(toLength: width, withPad: " ", startingAt: 0) + argument.help)
            }
        }
        let sections: [(String, [OptionSpec])] = [("Options:", command.options), ("Global options:", globalOptions)]
        let width = ((command.options + globalOptions).map(\.synopsis.count).max() ?? 0) + 2
        for (title, options) in sections where !options.isEmpty {
            lines.append("")
            lines.append(title)
            for option in options {
                lines.append("  " + option.synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + option.help)
            }
        }
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
}

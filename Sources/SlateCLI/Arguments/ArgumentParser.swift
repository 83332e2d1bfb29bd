import Foundation
import SlateCore

/// Splits the command line, finds the command, and matches options and arguments.
struct ArgumentParser {
    let root: CommandSpec
    let globalOptions: [OptionSpec]

    /// The command to run and what was given to it.
    func parse(_ arguments: [String]) throws -> (CommandSpec, ParsedCommand) {
        var command = root
        var parsed = ParsedCommand(path: [])
        var remaining = arguments[...]
        // Global options may come before the command name.
        while let first = remaining.first, first.hasPrefix("-"), first != "-", first != "--" {
            remaining = try consumeOption(remaining, command: command, into: &parsed)
        }
        // Walk down to the deepest subcommand named.
        while let first = remaining.first, !command.subcommands.isEmpty, !first.hasPrefix("-") {
            guard let sub = command.subcommand(first) else {
                if command.run != nil && command.name != root.name { break }
                var message = "unknown command '\(first)'."
                if let guess = Suggestion.closest(to: first, in: command.subcommands.map(\.name)) {
                    message += " Did you mean '\(guess)'?"
                }
                throw UsageError(message: message, command: parsed.path)
            }
            command = sub
            parsed.path.append(first)
            remaining = remaining.dropFirst()
        }
        var onlyPositionals = false
        while let first = remaining.first {
            if onlyPositionals || first == "-" || !first.hasPrefix("-") || Self.isNegativeNumber(first) {
                parsed.positionals.append(first)
                remaining = remaining.dropFirst()
            } else if first == "--" {
                onlyPositionals = true
                remaining = remaining.dropFirst()
            } else {
                remaining = try consumeOption(remaining, command: command, into: &parsed)
            }
        }
        if !parsed.flag("help") && !parsed.flag("version") { try checkPositionals(command, parsed) }
        return (command, parsed)
    }

    private static func isNegativeNumber(_ text: String) -> Bool { text.count > 1 && Double(text) != nil }

    private func options(of command: CommandSpec) -> [OptionSpec] { command.options + globalOptions }

    private func consumeOption(_ arguments: ArraySlice<String>, command: CommandSpec, into parsed: inout ParsedCommand) throws -> ArraySlice<String> {
        var remaining = arguments
        let word = remaining.removeFirst()
        var name: String
        var inlineValue: String?
        if word.hasPrefix("--") {
            name = String(word.dropFirst(2))
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = options(of: command).first(where: { $0.long == name }) else {
                throw unknownOption("--\(name)", command: command, path: parsed.path)
            }
            return try store(option, inlineValue: inlineValue, remaining: remaining, into: &parsed)
        }
        // Short options: -h, or -l VALUE.
        let letters = Array(word.dropFirst())
        guard letters.count == 1, let option = options(of: command).first(where: { $0.short == letters[0] }) else {
            throw unknownOption(word, command: command, path: parsed.path)
        }
        return try store(option, inlineValue: nil, remaining: remaining, into: &parsed)
    }

    private func store(_ option: OptionSpec, inlineValue: String?, remaining: ArraySlice<String>, into parsed: inout ParsedCommand) throws -> ArraySlice<String> {
        var remaining = remaining
        if option.isFlag {
            guard inlineValue == nil else {
                throw UsageError(message: "--\(option.long) takes no value.", command: parsed.path)
            }
            parsed.flags.insert(option.long)
            return remaining
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else if let next = remaining.first, next == "-" || !next.hasPrefix("--") {
            value = next
            remaining = remaining.dropFirst()
        } else {
            throw UsageError(message: "--\(option.long) needs a value: --\(option.long) <\(option.valueName!)>.", command: parsed.path)
        }
        if !option.isRepeatable, parsed.values[option.long] != nil {
            throw UsageError(message: "--\(option.long) was given twice.", command: parsed.path)
        }
        parsed.values[option.long, default: []].append(value)
        return remaining
    }

    private func unknownOption(_ word: String, command: CommandSpec, path: [String]) -> UsageError {
        var message = "unknown option '\(word)'."
        let names = options(of: command).map { "--" + $0.long }
        if let guess = Suggestion.closest(to: word.hasPrefix("--") ? word : "-" + word, in: names) {
            message += " Did you mean '\(guess)'?"
        }
        return UsageError(message: message, command: path)
    }

    /// `text` as a shell word: in single quotes, or double quotes when it holds one.
    static func shellQuoted(_ text: String) -> String {
        guard text.contains("'") else { return "'\(text)'" }
        var escaped = ""
        for character in text {
            if "\\\"$`".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return "\"\(escaped)\""
    }

    private func checkPositionals(_ command: CommandSpec, _ parsed: ParsedCommand) throws {
        guard command.run != nil else {
            if let extra = parsed.positionals.first {
                throw UsageError(message: "unknown command '\(extra)'.", command: parsed.path)
            }
            return
        }
        let required = command.arguments.filter { !$0.isOptional }
        if parsed.positionals.count < required.count {
            let missing = required[parsed.positionals.count]
            throw UsageError(message: "missing <\(missing.name)>: \(missing.help.prefix(1).lowercased() + missing.help.dropFirst())", command: parsed.path)
        }
        if !command.arguments.contains(where: \.isRepeating), parsed.positionals.count > command.arguments.count {
            let hint = command.unexpectedArgumentsHint?(parsed.positionals).map { " " + $0 } ?? ""
            throw UsageError(message: "unexpected argument '\(parsed.positionals[command.arguments.count])'." + hint, command: parsed.path)
        }
    }
}

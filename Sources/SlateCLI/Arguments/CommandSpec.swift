import Foundation

/// A command as declared: its name, help, arguments and options. Help text and parsing
/// are both generated from this one declaration.
struct CommandSpec: Sendable {
    var name: String
    /// One line, shown in the parent's command list.
    var abstract: String
    /// More help, shown under the usage line.
    var discussion: String? = nil
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var subcommands: [CommandSpec] = []
    /// Runs the parsed command; nil for a command that only groups subcommands.
    var run: (@Sendable (ParsedCommand, Session) throws -> Void)? = nil
    /// What to add to "unexpected argument" for these positionals, when the command can
    /// guess what was meant (`edit`: a title given without --title).
    var unexpectedArgumentsHint: (@Sendable (_ positionals: [String]) -> String?)? = nil

    /// The subcommand named `name`.
    func subcommand(_ name: String) -> CommandSpec? { subcommands.first { $0.name == name } }
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var isRepeating = false
    var isOptional = false

    var usage: String {
        let base = "<\(name)>" + (isRepeating ? "..." : "")
        return isOptional ? "[\(base)]" : base
    }
}

/// An option: `--name VALUE`, `--name=VALUE`, or a flag `--name`.
struct OptionSpec: Sendable {
    var long: String
    var short: Character? = nil
    /// The placeholder of the value; nil for a flag.
    var valueName: String? = nil
    var help: String
    var isRepeatable = false

    static func flag(_ long: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, help: help)
    }

    static func value(_ long: String, short: Character? = nil, _ valueName: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: valueName, help: help, isRepeatable: repeatable)
    }

    var isFlag: Bool { valueName == nil }

    var synopsis: String {
        var text = short.map { "-\($0), " } ?? "    "
        text += "--\(long)"
        if let valueName { text += " <\(valueName)>" }
        return text
    }
}

/// What the command line said, once matched against a `CommandSpec`.
struct ParsedCommand: Sendable {
    /// The command path, such as ["lists", "add"].
    var path: [String]
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func allValues(_ name: String) -> [String] { values[name] ?? [] }
    var commandName: String { (["slate"] + path).joined(separator: " ") }
}

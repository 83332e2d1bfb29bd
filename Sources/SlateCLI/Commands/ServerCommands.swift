import Foundation
import SlateCore
import SlateHTTP
import SlateServer

/// `slate serve`, `slate user …` and `slate token create`.
enum ServerCommands {
    /// `slate serve` (see ``ServeCommand``).
    static let serve = ServeCommand.spec

    static let user = CommandSpec(
        name: "user", abstract: "Add accounts and change passwords",
        subcommands: [userAdd, userPasswd, userList])

    static let passwordOption = OptionSpec.flag("password-stdin", "Read the password from standard input instead of generating one.")

    static let userAdd = passwordCommand(
        "add", "Add an account (prints a generated password once)",
        perform: { try $0.addUser(named: $1, password: $2) },
        chosen: { "Added \($0)." }, generated: { "Added \($0) with the password\n  \($1)" })

    static let userPasswd = passwordCommand(
        "passwd", "Set a new password (prints a generated one once) and sign out its web sessions",
        perform: { try $0.changePassword(of: $1, to: $2) },
        chosen: { "Changed the password of \($0)." }, generated: { "New password for \($0):\n  \($1)" })

    /// A `slate user` subcommand that sets a password, chosen on standard input or generated.
    static func passwordCommand(
        _ name: String, _ abstract: String,
        perform: @escaping @Sendable (AccountAdministration, String, String?) throws -> String,
        chosen: @escaping @Sendable (String) -> String, generated: @escaping @Sendable (String, String) -> String
    ) -> CommandSpec {
        CommandSpec(
            name: name, abstract: abstract,
            arguments: [ArgumentSpec(name: "name", help: "The account name.")],
            options: [passwordOption],
            run: { parsed, session in
                let administration = AccountAdministration(container: try session.slate().container)
                let account = parsed.positionals[0]
                let password = try perform(administration, account, try readPassword(parsed))
                session.console.line(parsed.flag("password-stdin") ? chosen(account) : generated(account, password))
            })
    }

    static let userList = CommandSpec(
        name: "list", abstract: "List the accounts",
        run: { _, session in
            let accounts = try AccountDirectory(container: try session.slate().container).accounts()
            if session.wantsJSON {
                session.console.out(PublicJSON.render(accounts.map { ["id": $0.id.uuidString.lowercased(), "name": $0.name] }))
            } else {
                accounts.forEach { session.console.line("  " + $0.name) }
            }
        })

    static let token = CommandSpec(
        name: "token", abstract: "Create API tokens",
        subcommands: [tokenCreate])

    static let tokenCreate = CommandSpec(
        name: "create", abstract: "Create a bearer token for an account (printed once)",
        options: [.value("user", "name", "The account (default: local)."), .value("label", "text", "What it is for.")],
        run: { parsed, session in
            let administration = AccountAdministration(container: try session.slate().container)
            let token = try administration.createToken(for: parsed.value("user") ?? Account.localName, label: parsed.value("label") ?? "")
            session.console.line(session.wantsJSON ? PublicJSON.render(["token": token]).trimmingCharacters(in: .newlines) : "Token (shown once; send it as 'Authorization: Bearer <token>'):\n  \(token)")
        })

    /// The password from standard input (first line), or nil to generate one.
    static func readPassword(_ parsed: ParsedCommand) throws -> String? {
        guard parsed.flag("password-stdin") else { return nil }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line
    }
}

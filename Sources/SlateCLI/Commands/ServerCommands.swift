import Foundation
import SlateCore
import SlateHTTP
import SlateServer

/// `slate serve`, `slate user …` and `slate token create|list|revoke`.
enum ServerCommands {
    /// `slate serve` (see ``ServeCommand``).
    static let serve = ServeCommand.spec

    /// `--trusted-proxy` (repeatable) and the deprecated `--behind-proxy` (loopback).
    static func trustedProxies(_ parsed: ParsedCommand, _ session: Session) throws -> TrustedProxies {
        var texts = parsed.allValues("trusted-proxy")
        if parsed.flag("behind-proxy") {
            FileHandle.standardError.write(Data("slate serve: --behind-proxy is deprecated; it now means --trusted-proxy 127.0.0.1 --trusted-proxy ::1.\n".utf8))
            texts += ["127.0.0.1", "::1"]
        }
        return TrustedProxies(try texts.map { text in
            guard let range = AddressRange(text) else {
                throw session.invalidValue(text, option: "trusted-proxy", expected: "an IP address or a CIDR range such as 10.0.0.0/8 or fd00::/8", path: parsed.path)
            }
            return range
        })
    }

    /// The SMTP server for email alerts, or nil when `--smtp-url` is not given.
    static func smtpConfiguration(_ parsed: ParsedCommand, _ session: Session, publicURL: String) throws -> SMTPConfiguration? {
        guard let url = parsed.value("smtp-url") else {
            if parsed.value("smtp-from") != nil || parsed.value("smtp-credentials") != nil {
                throw UsageError(message: "--smtp-from and --smtp-credentials (smtp_from, smtp_credentials) need --smtp-url (smtp_url).", command: parsed.path)
            }
            return nil
        }
        guard let from = parsed.value("smtp-from") else {
            throw UsageError(message: "--smtp-url (smtp_url) needs --smtp-from ADDRESS (smtp_from): the sender of the alerts.", command: parsed.path)
        }
        var username = session.environment["SLATE_SMTP_USER"], password = session.environment["SLATE_SMTP_PASSWORD"]
        if let file = parsed.value("smtp-credentials") {
            // A path, or credential:NAME for a systemd credential (the same rule as --tls-key).
            let data = try readSecret(file, option: "smtp-credentials", session)
            guard let text = String(data: data, encoding: .utf8) else {
                throw SlateError.invalid(field: "smtp-credentials", message: "The SMTP credentials file is not UTF-8 text.")
            }
            (username, password) = try SMTPConfiguration.credentials(fromText: text)
        }
        return try SMTPConfiguration(url: url, from: from, username: username, password: password,
                                     requireTLS: parsed.flag("smtp-require-tls"), publicURL: publicURL)
    }

    /// A secret file's bytes (a path, or `credential:NAME`), its problem said as a value error.
    static func readSecret(_ reference: String, option: String, _ session: Session) throws -> Data {
        do {
            return try SecretFile.read(reference, option: option, environment: session.environment)
        } catch let problem as ConfigurationFile.Problem {
            throw SlateError.invalid(field: option, message: problem.description)
        }
    }

    static let user = CommandSpec(
        name: "user", abstract: "Add accounts and change passwords",
        subcommands: [userAdd, userPasswd, userEdit, userList])

    static let passwordOption = OptionSpec.flag("password-stdin", "Read the password from standard input instead of generating one.")

    static let userAdd: CommandSpec = {
        var spec = passwordCommand(
            "add", "Add an account (prints a generated password once)",
            perform: { try $0.addUser(named: $1, password: $2) },
            chosen: { "Added \($0)." }, generated: { "Added \($0) with the password\n  \($1)" })
        spec.options.append(.value("email", "address", "Where email alerts go."))
        let add = spec.run!
        spec.run = { parsed, session in
            // The address is checked before the account exists: a bad one adds nothing.
            let email = try parsed.value("email").map { try AlertRules.validEmail($0) }
            try add(parsed, session)
            guard let email else { return }
            let container = try session.slate().container
            guard let account = try AccountDirectory(container: container).account(named: parsed.positionals[0]) else { return }
            let slate = Slate(container: container, accountID: account.id)
            var settings = try slate.alertSettings()
            settings.email = email
            try slate.saveAlertSettings(settings)
        }
        return spec
    }()

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
        name: "token", abstract: "Create, list and revoke API tokens",
        subcommands: [tokenCreate, tokenList, tokenRevoke])

    static let userOption = OptionSpec.value("user", "name", "The account (default: local).")

    static let tokenCreate = CommandSpec(
        name: "create", abstract: "Create a bearer token for an account (printed once)",
        options: [userOption, .value("label", "text", "What it is for."),
                  .value("expires", "lifetime", "When it stops working: 12h, 30d, 8w, 1y (at most 10y) or never (default).")],
        run: { parsed, session in
            let administration = AccountAdministration(container: try session.slate().container)
            let lifetime: TimeInterval?
            do {
                lifetime = try parsed.value("expires").flatMap { try TokenLifetime.parse($0, field: "expires") }
            } catch {
                throw session.invalidValue(parsed.value("expires") ?? "", option: "expires", expected: TokenLifetime.forms, path: parsed.path)
            }
            let token = try administration.createToken(for: parsed.value("user") ?? Account.localName, label: parsed.value("label") ?? "", lifetime: lifetime)
            session.console.line(session.wantsJSON ? PublicJSON.render(["token": token]).trimmingCharacters(in: .newlines) : "Token (shown once; send it as 'Authorization: Bearer <token>'):\n  \(token)")
        })

    static let tokenList = CommandSpec(
        name: "list", abstract: "List an account's tokens: label, created, last used, expiry (never the secret)",
        options: [userOption],
        run: { parsed, session in
            let administration = AccountAdministration(container: try session.slate().container)
            let user = parsed.value("user") ?? Account.localName
            let tokens = try administration.tokens(of: user)
            if session.wantsJSON {
                session.console.out(PublicJSON.render(tokens.map(\.json)))
                return
            }
            if tokens.isEmpty { session.console.line("No tokens for \(user) (create one with: slate token create --user \(user) --label NAME).") }
            for token in tokens {
                let id = String(token.id.uuidString.lowercased().prefix(8))
                let used = token.lastUsed.map(Timestamp.format) ?? "never used"
                let expires = token.expires.map { ($0 <= Date() ? "expired " : "expires ") + Timestamp.format($0) } ?? "no expiry"
                session.console.line("  \(id)  \(token.label.isEmpty ? "(no label)" : token.label)  created \(Timestamp.format(token.created)), \(used), \(expires)")
            }
        })

    static let tokenRevoke = CommandSpec(
        name: "revoke", abstract: "Revoke a token (it stops working at once)",
        arguments: [ArgumentSpec(name: "id", help: "The token's id or its first 8 or more characters (slate token list shows them).")],
        options: [userOption],
        run: { parsed, session in
            let administration = AccountAdministration(container: try session.slate().container)
            let token = try administration.revokeToken(parsed.positionals[0], of: parsed.value("user") ?? Account.localName)
            session.console.line("Revoked the token \(token.label.isEmpty ? String(token.id.uuidString.lowercased().prefix(8)) : "'\(token.label)'").")
        })

    /// The password from standard input (first line), or nil to generate one.
    static func readPassword(_ parsed: ParsedCommand) throws -> String? {
        guard parsed.flag("password-stdin") else { return nil }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line
    }
}

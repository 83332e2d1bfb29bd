import Foundation
import SlateCore
import SlateHTTP
import SlateServer

/// `slate serve`, `slate user …` and `slate token create`.
enum ServerCommands {
    static let serve = CommandSpec(
        name: "serve", abstract: "Serve the REST API, live events and the web app",
        discussion: """
            Listens on 127.0.0.1:8080 unless told otherwise; use --host 0.0.0.0 to reach it from a
            phone on the same network. On the first start it creates an account and prints its
            password once. Stop it with Ctrl-C (it finishes requests in flight, then exits 0).
            """,
        options: [
            .value("host", "address", "The address to listen on (default 127.0.0.1)."),
            .value("port", "port", "The port (default 8080; 0 picks a free one)."),
            .value("web", "folder", "The web app's folder (default: Web next to the database's app, if present)."),
            .flag("behind-proxy", "Behind a TLS proxy: mark cookies Secure."),
            .value("log-level", "level", "all (default), errors or off."),
            .value("max-connections", "count", "Simultaneous connections in total (default 1024)."),
            .value("connections-per-ip", "count", "Simultaneous connections from one address (default 64; 0 is unlimited)."),
            .value("missed-alerts-max-age", "age", "Alerts missed while stopped are sent at start when younger (default 12h; 30m, 2h, 1d)."),
            .value("smtp-url", "url", "Send email alerts through this server: smtp://host[:port] (STARTTLS when offered) or smtps://host[:port]."),
            .value("smtp-from", "address", "The sender of email alerts (needed with --smtp-url)."),
            .value("smtp-credentials", "file", "A file holding user:password for the SMTP server (else SLATE_SMTP_USER / SLATE_SMTP_PASSWORD)."),
            .flag("smtp-require-tls", "Refuse to send email over a connection without TLS."),
            .value("public-url", "url", "The address people open Slate at, for links in emails (default: the listening address)."),
        ],
        run: runServe)

    @Sendable static func runServe(_ parsed: ParsedCommand, _ session: Session) throws {
        let host = parsed.value("host") ?? "127.0.0.1"
        let port = try parsed.value("port").map { text -> Int in
            guard let port = Int(text), (0...65535).contains(port) else {
                throw session.invalidValue(text, option: "port", expected: "a port number from 0 to 65535", path: parsed.path)
            }
            return port
        } ?? 8080
        let level: AccessLog.Level
        switch parsed.value("log-level")?.lowercased() ?? "all" {
        case "all": level = .all
        case "errors": level = .errors
        case "off": level = .off
        case let other: throw session.invalidValue(other, option: "log-level", expected: "all, errors or off", path: parsed.path)
        }
        let maximumAge = try parsed.value("missed-alerts-max-age").map { text -> TimeInterval in
            guard let alert = try? TaskAlert(parsing: text), case .beforeDue(let seconds) = alert.trigger, seconds > 0 else {
                throw session.invalidValue(text, option: "missed-alerts-max-age", expected: "an age such as 30m, 12h or 1d", path: parsed.path)
            }
            return TimeInterval(seconds)
        } ?? 12 * 3600
        let webRoot = parsed.value("web") ?? ["Web", "/usr/share/slate/Web"].first { FileManager.default.fileExists(atPath: $0 + "/index.html") }

        let slate = try session.slate()
        let administration = AccountAdministration(container: slate.container)
        let service = SlateService(container: slate.container, webRoot: webRoot, secureCookies: parsed.flag("behind-proxy"), logLevel: level)
        var configuration = HTTPServer.Configuration(host: host, port: port)
        for (option, keyPath, least) in [("max-connections", \HTTPServer.Configuration.maxConnections, 1), ("connections-per-ip", \.connectionsPerIP, 0)] {
            guard let text = parsed.value(option) else { continue }
            guard let count = Int(text), count >= least else {
                throw session.invalidValue(text, option: option, expected: "a count of \(least) or more", path: parsed.path)
            }
            configuration[keyPath: keyPath] = count
        }
        // Checked before listening: a wrong SMTP option stops here, with nothing started.
        _ = try smtpConfiguration(parsed, session, publicURL: parsed.value("public-url") ?? "http://\(host)")
        let server = HTTPServer(configuration: configuration, responder: service.router)
        do {
            try server.start()
        } catch {
            throw SlateError.invalid(field: "port", message: "Cannot listen on \(host):\(port): \(error).")
        }
        var banner = "Slate is serving \(session.databasePath)\n  http://\(host == "0.0.0.0" ? "<this machine's address>" : host):\(server.port)/\n"
        if host == "0.0.0.0" { banner += "  reachable from other devices on your network: use this machine's IP address\n" }
        if let first = try administration.firstStartAccount() {
            banner += "First start: created the account '\(first.name)' with the password\n  \(first.password)\n"
            banner += "It is shown once; change it with: slate user passwd \(first.name)\n"
        } else if webRoot != nil {
            banner += "Sign in with your account's name and password (slate user list names them; slate user passwd NAME sets a new password).\n"
        }
        if webRoot == nil { banner += "(No web app folder found: serving the API only.)\n" }
        FileHandle.standardOutput.write(Data(banner.utf8))
        let watcher = service.watchExternalChanges()
        let email = try smtpConfiguration(parsed, session, publicURL: parsed.value("public-url") ?? "http://\(host):\(server.port)")
        let extra: [any AlertChannel] = email.map { [EmailAlerts(configuration: $0, container: slate.container)] } ?? []
        let scheduler = service.alertScheduler(extra: extra, maximumAge: maximumAge) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let alerts = Task { await scheduler.run() }
        server.shutdownOnSignals()
        let stopped = DispatchSemaphore(value: 0)
        Task {
            await server.waitUntilStopped()
            watcher.cancel()
            alerts.cancel()
            stopped.signal()
        }
        // The main thread waits here; the server's own threads and Swift's pool do the work.
        stopped.wait()
        session.console.line("Stopped.")
    }

    /// The SMTP server for email alerts, or nil when `--smtp-url` is not given.
    static func smtpConfiguration(_ parsed: ParsedCommand, _ session: Session, publicURL: String) throws -> SMTPConfiguration? {
        guard let url = parsed.value("smtp-url") else {
            if parsed.value("smtp-from") != nil || parsed.value("smtp-credentials") != nil {
                throw UsageError(message: "--smtp-from and --smtp-credentials need --smtp-url.", command: parsed.path)
            }
            return nil
        }
        guard let from = parsed.value("smtp-from") else {
            throw UsageError(message: "--smtp-url needs --smtp-from ADDRESS (the sender of the alerts).", command: parsed.path)
        }
        var username = session.environment["SLATE_SMTP_USER"], password = session.environment["SLATE_SMTP_PASSWORD"]
        if let file = parsed.value("smtp-credentials") { (username, password) = try SMTPConfiguration.credentials(fromFile: file) }
        return try SMTPConfiguration(url: url, from: from, username: username, password: password,
                                     requireTLS: parsed.flag("smtp-require-tls"), publicURL: publicURL)
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

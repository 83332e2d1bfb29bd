import Foundation
import SlateCore
import SlateDAV
import SlateHTTP
import SlateServer

/// `slate serve`: the API, live events, the web app, health checks and (optionally)
/// metrics, configured by options and an optional configuration file.
enum ServeCommand {
    /// Reader connections a server keeps besides the writer when `--database-pool` is not
    /// given: one per board reader thread, and on a file one more per core, for the short
    /// reads the API runs on the request's own thread (a connection opened past the pool
    /// is closed after its read, and opening one reads the schema again).
    static func defaultDatabasePool(isServerDatabase: Bool) -> Int {
        let readerThreads = BoardThreads.shared.readerCount
        return isServerDatabase ? readerThreads : readerThreads + ProcessInfo.processInfo.activeProcessorCount
    }

    static let spec = CommandSpec(
        name: "serve", abstract: "Serve the REST API, live events and the web app",
        discussion: """
            Listens on 127.0.0.1:8080 unless told otherwise; use --host 0.0.0.0 to reach it from a
            phone on the same network. On the first start it creates an account and prints its
            password once. Stop it with Ctrl-C or SIGTERM (it finishes requests in flight, then
            exits 0); SIGHUP re-reads the configuration file (log format and level apply at once).
            --config FILE reads `key = value` lines (see slate.conf.example); options given on
            the command line win over the file. GET /healthz and GET /readyz answer without
            signing in; --metrics 127.0.0.1:9464 serves GET /metrics (Prometheus) on a second,
            loopback-only listener. Under systemd (Type=notify) it reports readiness and stopping.
            """,
        options: [
            .value("config", "file", "A configuration file (key = value lines)."),
            .value("host", "address", "The address to listen on (default 127.0.0.1)."),
            .value("port", "port", "The port (default 8080; 0 picks a free one)."),
            .value("web", "folder", "The web app's folder (default: share/slate/web beside the installed binary, or ./Web)."),
            .value("tls-cert", "file", "Serve HTTPS with this PEM certificate (chain); needs --tls-key."),
            .value("tls-key", "file", "The PEM private key of --tls-cert (credential:NAME reads a systemd credential)."),
            .value("trusted-proxy", "address", "A TLS-terminating reverse proxy (an IP or CIDR range; repeatable): its X-Forwarded-For names the client, cookies are Secure, HSTS is sent.", repeatable: true),
            .flag("behind-proxy", "Deprecated: the same as --trusted-proxy 127.0.0.1 --trusted-proxy ::1."),
            .value("log-level", "level", "all (default), errors or off."),
            .value("log-format", "format", "text (default) or json: one JSON object per line."),
            .value("max-connections", "count", "Simultaneous connections in total (default 1024)."),
            .value("connections-per-ip", "count", "Simultaneous connections from one address (default 64; 0 is unlimited)."),
            .value("streams-per-account", "count", "Live event streams one account may keep open (default 16)."),
            .value("max-body-size", "bytes", "The largest request body (default 1MiB; 1024 to 1GiB, KiB, MiB and GiB accepted)."),
            .value("metrics", "address", "Serve GET /metrics on this loopback address:port (default off)."),
            .value("missed-alerts-max-age", "age", "Alerts missed while stopped are sent at start when younger (default 12h; 30m, 2h, 1d)."),
            .value("smtp-url", "url", "Send email alerts through this server: smtp://host[:port] (STARTTLS when offered) or smtps://host[:port]."),
            .value("smtp-from", "address", "The sender of email alerts (needed with --smtp-url)."),
            .value("smtp-credentials", "file", "A file holding user:password for the SMTP server (else SLATE_SMTP_USER / SLATE_SMTP_PASSWORD)."),
            .flag("smtp-require-tls", "Refuse to send email over a connection without TLS."),
            .value("public-url", "url", "The address people open Slate at, for links in emails (default: the listening address)."),
            .value("database-pool", "count", "Reader connections besides the writer (and, on PostgreSQL, the listener); default 4 on PostgreSQL, 4 and one per core on a file."),
        ],
        run: run)

    /// The settings of one start, checked.
    struct Settings {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 8080)
        var webRoot: String?
        var logFormat = ServiceLog.Format.text
        var logLevel = AccessLog.Level.all
        var metrics: (host: String, port: Int)?
        var secureCookies = false
        var strictTransportSecurity = false
        var streamsPerAccount = 16
    }

    @Sendable static func run(_ given: ParsedCommand, _ session: Session) throws {
        var parsed = given
        var file: ConfigurationFile?
        if let path = given.value("config") {
            let configuration = try readConfiguration(path)
            parsed = configuration.merged(into: given)
            file = configuration
            // The database: --database or --db wins, then the file, then SLATE_DATABASE or SLATE_DB.
            if given.value("db") == nil, given.value("database") == nil, let database = parsed.value("db") {
                session.useDatabase(database, passwordFile: given.value("database-password-file") == nil ? parsed.value("database-password-file") : nil)
            }
        }
        let settings = try settings(parsed, session)
        // Checked before the database is touched: a wrong alert or SMTP option stops here.
        let maximumAge = try missedAlertsMaximumAge(parsed, session)
        if try ServerCommands.smtpConfiguration(parsed, session, publicURL: parsed.value("public-url") ?? "http://localhost") != nil {
            try EmailAlerts.loadLibrary()
        }
        let log = ServiceLog(format: settings.logFormat, requestLevel: settings.logLevel)
        let notifier = ServiceManagerNotifier(environment: session.environment)

        session.databasePool = parsed.value("database-pool").flatMap { Int($0) }
            ?? Self.defaultDatabasePool(isServerDatabase: session.isServerDatabase)
        try Session.createDatabaseFolder(for: session.databasePath)
        // One server per file; any number of nodes on a PostgreSQL database (nothing is kept
        // in one node that another needs).
        let lock = session.isServerDatabase ? nil : try BoardFile.claimForServing(session.databasePath)
        guard session.isServerDatabase || lock != nil else {
            throw SlateError.invalid(field: "db", message: "Another slate serve is serving \(session.databasePath); stop it first.")
        }
        session.reportsMigrationBackup = false
        session.isLongRunning = true
        let slate = try session.slate()
        if let backup = slate.container.migrationBackup {
            log.event("database upgraded", level: "warning", ["schema": SlateSchema.version, "copy_before": backup])
        }
        let metrics = settings.metrics.map { _ in MetricsRegistry() }
        var options = ServiceOptions()
        options.log = log
        options.metrics = metrics
        options.strictTransportSecurity = settings.strictTransportSecurity
        options.streamsPerAccount = settings.streamsPerAccount
        let service = SlateService(container: slate.container, webRoot: settings.webRoot,
                                   secureCookies: settings.secureCookies, options: options)
        // CalDAV under /dav/ (and /.well-known/caldav) beside the API and the web app.
        let basic = BasicAuthenticator(container: slate.container)
        let dav = CalDAVService(directory: AccountDirectory(container: slate.container), authenticate: { try await basic.accountID(for: $0) },
                                identify: { try basic.rememberedAccountID(for: $0) },
                                log: log, metrics: metrics)
        var configuration = settings.configuration
        // On PostgreSQL every request waits for a round trip almost at once: started where
        // it was received it costs that thread only its routing, and saves a hand-off (a
        // node's CPU per GET 97–110 → 86–90 µs). On SQLite a short read would run to its
        // end there, so under load requests start on Swift's pool.
        configuration.startsInPlaceUnderLoad = !slate.container.readsWithoutWaiting
        let server = HTTPServer(configuration: configuration, responder: DAVMount(dav: dav.router, other: service.router))
        do {
            try server.start()
        } catch {
            throw SlateError.invalid(field: "port", message: "Cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
        var metricsServer: HTTPServer?
        var counting: Task<Void, Never>?
        if let metrics, let address = settings.metrics {
            counting = ServiceMetrics.register(slate.container, in: metrics)
            metricsServer = try startMetrics(metrics, at: address)
        }

        // Signals are handled before anyone is told the server is up.
        ProcessSignals.observe([SIGINT, SIGTERM]) {
            notifier.stopping()
            log.event("stopping")
        }
        server.shutdownOnSignals()
        metricsServer?.shutdownOnSignals()
        let commandLine = given
        let configurationPath = file?.path
        ProcessSignals.observe([SIGHUP]) {
            guard let configurationPath else { return log.event("reload skipped", ["reason": "no --config file to read"]) }
            reload(configurationPath, commandLine: commandLine, log: log, notifier: notifier)
        }

        let scheme = settings.configuration.tls == nil ? "http" : "https"
        let host = settings.configuration.host
        // Under a service manager standard output goes to the journal: no password there.
        // Nor on a shared database: nodes start together, and accounts are made with `slate user add`.
        try printBanner(session: session, slate: slate, scheme: scheme, host: host, port: server.port, webRoot: settings.webRoot,
                        mayPrintPassword: notifier.socketPath == nil && !session.isServerDatabase)
        let address = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(server.port)"
        log.event("listening", ["address": address,
                                "database": session.databaseName, "web": settings.webRoot ?? "none",
                                "metrics": metricsServer.map { "\(settings.metrics!.host):\($0.port)" } ?? "off"])
        notifier.ready(status: "Serving on port \(server.port)")

        let watcher = service.watchExternalChanges()
        let publicURL = parsed.value("public-url") ?? address
        let email = try ServerCommands.smtpConfiguration(parsed, session, publicURL: publicURL)
        let channels: [any AlertChannel] = try email.map { [try EmailAlerts(configuration: $0, container: slate.container)] } ?? []
        let scheduler = service.alertScheduler(extra: channels, maximumAge: maximumAge,
                                               pushSubject: email.map { "mailto:" + $0.from } ?? "mailto:slate@localhost") { line in
            log.event("alerts", level: "warning", ["detail": line])
        }
        metrics?.addCounters("slate_alert_deliveries_total",
                             help: "Alert deliveries since the start, by channel and outcome (sent; retried: failed, tried again later; failed: given up; skipped: the task was gone or completed).") {
            scheduler.deliveryCounts().map { ([("channel", $0.channel), ("outcome", $0.outcome)], Double($0.count)) }
        }
        let alerts = Task { await scheduler.run() }
        let memory = MemoryKeeper().run()
        let stopped = DispatchSemaphore(value: 0)
        Task {
            await server.waitUntilStopped()
            await metricsServer?.waitUntilStopped()
            watcher.cancel()
            alerts.cancel()
            memory.cancel()
            counting?.cancel()
            stopped.signal()
        }
        // The main thread waits here; the server's own threads and Swift's pool do the work.
        stopped.wait()
        // The long log this server kept, folded back: the next command need not read it.
        slate.container.foldWriteAheadLog()
        log.event("stopped")
        withExtendedLifetime(lock) {}
        session.console.line("Stopped.")
    }

    /// `--missed-alerts-max-age` (default 12 hours).
    static func missedAlertsMaximumAge(_ parsed: ParsedCommand, _ session: Session) throws -> TimeInterval {
        guard let text = parsed.value("missed-alerts-max-age") else { return 12 * 3600 }
        guard let alert = try? TaskAlert(parsing: text), case .beforeDue(let seconds) = alert.trigger, seconds > 0 else {
            throw session.invalidValue(text, option: "missed-alerts-max-age", expected: "an age such as 30m, 12h or 1d", path: parsed.path)
        }
        return TimeInterval(seconds)
    }

    static func readConfiguration(_ path: String) throws -> ConfigurationFile {
        do {
            return try ConfigurationFile(contentsOf: path)
        } catch let problem as ConfigurationFile.Problem {
            throw SlateError.invalid(field: "config", message: problem.description)
        }
    }

    /// SIGHUP: reads the file again; a good file's log format and level apply at once
    /// (unless set on the command line), other changed settings wait for a restart; a bad
    /// file is reported and the running settings stay.
    static func reload(_ path: String, commandLine: ParsedCommand, log: ServiceLog, notifier: ServiceManagerNotifier) {
        notifier.reloading()
        defer { notifier.ready(status: "Reloaded") }
        do {
            let file = try ConfigurationFile(contentsOf: path)
            let merged = file.merged(into: commandLine)
            if let format = merged.value("log-format").flatMap(ServiceLog.Format.init(rawValue:)) { log.format = format }
            if let level = merged.value("log-level").flatMap(accessLevel) { log.requestLevel = level }
            log.event("reloaded", ["applied": "log_format, log_level", "restart_for": "other settings"])
        } catch {
            log.event("reload refused", level: "error", ["reason": "\(error)"])
        }
    }

    static func accessLevel(_ text: String) -> AccessLog.Level? {
        switch text.lowercased() {
        case "all": .all
        case "errors": .errors
        case "off": .off
        default: nil
        }
    }

    static func startMetrics(_ registry: MetricsRegistry, at address: (host: String, port: Int)) throws -> HTTPServer {
        var router = Router()
        router.on(.get, "/metrics") { _ in
            Response.text(registry.render(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        var configuration = HTTPServer.Configuration(host: address.host, port: address.port)
        configuration.maxConnections = 16
        let server = HTTPServer(configuration: configuration, responder: router)
        do {
            try server.start()
        } catch {
            throw SlateError.invalid(field: "metrics", message: "Cannot listen on \(address.host):\(address.port) for metrics: \(error)")
        }
        return server
    }

    static func printBanner(session: Session, slate: Slate, scheme: String, host: String, port: Int, webRoot: String?,
                            mayPrintPassword: Bool) throws {
        let administration = AccountAdministration(container: slate.container)
        var banner = "Slate is serving \(session.databaseName)\n  \(scheme)://\(host == "0.0.0.0" ? "<this machine's address>" : host):\(port)/\n"
        if host == "0.0.0.0" { banner += "  reachable from other devices on your network: use this machine's IP address\n" }
        if !mayPrintPassword {
            if try AccountDirectory(container: slate.container).accounts().isEmpty {
                banner += "No account yet: add one with slate user add NAME (see the README's service section).\n"
            }
        } else if let first = try administration.firstStartAccount() {
            banner += "First start: created the account '\(first.name)' with the password\n  \(first.password)\n"
            banner += "It is shown once; change it with: slate user passwd \(first.name)\n"
        } else if webRoot != nil {
            banner += "Sign in with your account's name and password (slate user list names them; slate user passwd NAME sets a new password).\n"
        }
        if webRoot == nil { banner += "(No web app folder found: serving the API only.)\n" }
        FileHandle.standardOutput.write(Data(banner.utf8))
    }
}

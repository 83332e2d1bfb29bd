import Foundation
import Testing

@testable import SlateCLI

// `slate serve --config FILE`: every key, unknown keys, bad values with their line and
// the accepted forms, command-line overrides, and secrets kept out of messages.

@Suite struct ConfigurationFileTests {
    static let everyKey = """
        # a full configuration
        host = 0.0.0.0
        port = 9090
        database = data/slate.sqlite
        database_password_file = db.password
        database_pool = 8

        web = "/srv/slate web"
        tls_certificate = /etc/slate/cert.pem
        tls_key = credential:tls.key
        behind_proxy = true
        trusted_proxies = 127.0.0.1, 10.0.0.0/8 ,fd00::/8
        log_format = json
        log_level = errors
        max_connections = 200
        connections_per_ip = 0
        streams_per_account = 32
        max_body_size = 4MiB
        metrics = 127.0.0.1:9464
        missed_alerts_max_age = 2h
        public_url = https://tasks.example.org
        smtp_url = smtp://mail.example.org:587
        smtp_from = slate@example.org
        smtp_credentials = smtp.credentials
        smtp_require_tls = true
        """

    @Test func readsEveryKeyOntoItsServeOption() throws {
        let file = try ConfigurationFile(text: Self.everyKey, path: "/etc/slate/slate.conf")
        let merged = file.merged(into: ParsedCommand(path: ["serve"]))
        #expect(merged.value("host") == "0.0.0.0")
        #expect(merged.value("port") == "9090")
        #expect(merged.value("db") == "/etc/slate/data/slate.sqlite", "relative to the file's folder")
        #expect(merged.value("database-password-file") == "/etc/slate/db.password", "relative to the file's folder")
        #expect(merged.value("database-pool") == "8")
        #expect(merged.value("web") == "/srv/slate web", "quotes removed")
        #expect(merged.value("tls-cert") == "/etc/slate/cert.pem")
        #expect(merged.value("tls-key") == "credential:tls.key")
        #expect(merged.flag("behind-proxy"))
        #expect(merged.allValues("trusted-proxy") == ["127.0.0.1", "10.0.0.0/8", "fd00::/8"])
        #expect(merged.value("log-format") == "json")
        #expect(merged.value("log-level") == "errors")
        #expect(merged.value("max-connections") == "200")
        #expect(merged.value("connections-per-ip") == "0")
        #expect(merged.value("streams-per-account") == "32")
        #expect(merged.value("max-body-size") == "4MiB")
        #expect(merged.value("metrics") == "127.0.0.1:9464")
        #expect(merged.value("missed-alerts-max-age") == "2h")
        #expect(merged.value("public-url") == "https://tasks.example.org")
        #expect(merged.value("smtp-url") == "smtp://mail.example.org:587")
        #expect(merged.value("smtp-from") == "slate@example.org")
        #expect(merged.value("smtp-credentials") == "/etc/slate/smtp.credentials", "relative to the file's folder")
        #expect(merged.flag("smtp-require-tls"))
        #expect(Set(file.entries.map(\.setting.key)) == Set(ServeSetting.all.map(\.key)), "the example sets every key")
    }

    @Test func proxiesOnTheCommandLineReplaceTheFilesProxies() throws {
        let file = try ConfigurationFile(text: "trusted_proxies = 10.0.0.1\n", path: "slate.conf")
        let merged = file.merged(into: ParsedCommand(path: ["serve"], flags: ["behind-proxy"]))
        #expect(merged.allValues("trusted-proxy").isEmpty)
        #expect(file.merged(into: ParsedCommand(path: ["serve"])).allValues("trusted-proxy") == ["10.0.0.1"])
    }

    @Test func theCommandLineWinsOverTheFile() throws {
        let file = try ConfigurationFile(text: "port = 9090\nhost = 0.0.0.0\nlog_format = json\n", path: "slate.conf")
        let merged = file.merged(into: ParsedCommand(path: ["serve"], values: ["port": ["7070"]]))
        #expect(merged.value("port") == "7070")
        #expect(merged.value("host") == "0.0.0.0")
    }

    @Test func everySettingMapsOntoAnOptionOfServe() {
        // --db and --database-password-file are global options, which serve reads too.
        let options = Set(ServeCommand.spec.options.map(\.long) + ["db", "database-password-file"])
        for setting in ServeSetting.all {
            #expect(options.contains(setting.option), "\(setting.key) → --\(setting.option)")
        }
        #expect(Set(ServeSetting.all.map(\.key)).count == ServeSetting.all.count)
    }

    /// The other way round: a serve option the file cannot set would leave a service
    /// unable to use it (email alerts were once missing from the file).
    @Test func everyOptionOfServeHasASetting() {
        for option in ServeCommand.spec.options.map(\.long) where option != "config" {
            #expect(ServeSetting.forOption(option) != nil, "--\(option) has no key in the configuration file")
        }
    }

    @Test func anUnknownKeyIsRefusedWithItsLineAndTheKnownKeys() {
        let problem = refusal("host = 127.0.0.1\n# comment\nprot = 8080\n")
        #expect(problem?.line == 3)
        #expect(problem?.message.contains("unknown key 'prot'") == true)
        #expect(problem?.message.contains("port") == true, "names the accepted keys")
        #expect(problem?.description.hasPrefix("slate.conf:3: ") == true)
    }

    @Test(arguments: [
        ("port = 70000", "a port number from 0 to 65535"),
        ("port = eighty", "a port number from 0 to 65535"),
        ("host = localhost", "an IPv4 or IPv6 address"),
        ("log_format = xml", "text or json"),
        ("log_level = debug", "all, errors or off"),
        ("behind_proxy = yes", "true or false"),
        ("max_connections = 0", "a count of 1 or more"),
        ("connections_per_ip = -1", "a count of 0 (unlimited) or more"),
        ("max_body_size = 2GiB", "a size in bytes"),
        ("max_body_size = 12", "a size in bytes"),
        ("metrics = 0.0.0.0:9464", "a loopback address and port"),
        ("metrics = 127.0.0.1", "a loopback address and port"),
        ("database = ", "the path of the database file"),
        ("trusted_proxies = 127.0.0.1, proxy.lan", "IP addresses or CIDR ranges"),
        ("trusted_proxies = 10.0.0.0/33", "IP addresses or CIDR ranges"),
        ("missed_alerts_max_age = soon", "an age such as 30m, 12h or 1d"),
        ("public_url = tasks.example.org", "an http:// or https:// address"),
        ("smtp_url = mail.example.org", "smtp://host[:port] or smtps://host[:port]"),
        ("smtp_from = nobody", "an email address"),
        ("smtp_require_tls = yes", "true or false"),
    ])
    func aBadValueIsRefusedWithItsLineAndTheAcceptedForms(line: String, forms: String) {
        let problem = refusal("# slate\n\n" + line + "\n")
        #expect(problem?.line == 3, "\(line)")
        #expect(problem?.message.contains(forms) == true, "\(line): \(problem?.message ?? "accepted")")
    }

    @Test(arguments: [("4096", 4096), ("512KiB", 512 << 10), ("4MiB", 4 << 20), ("1GiB", 1 << 30), ("1024MiB", 1 << 30)])
    func sizesAreReadInEveryUnitUpToTheStatedMaximum(text: String, bytes: Int) {
        #expect(ServeSetting.byteCount(text) == bytes, "\(text)")
        #expect(refusal("max_body_size = \(text)\n") == nil, "\(text) is within 1 KiB…1 GiB")
    }


    @Test func malformedLinesAndRepeatedKeysAreRefused() {
        #expect(refusal("port 8080\n")?.message.contains("expected key = value") == true)
        let repeated = refusal("port = 1\nport = 2\n")
        #expect(repeated?.line == 2)
        #expect(repeated?.message.contains("already set on line 1") == true)
    }

    @Test func serveRefusesABadFileBeforeOpeningTheDatabase() throws {
        let cli = try CLIHarness()
        let config = cli.folder.appendingPathComponent("slate.conf").path
        try "port = 8080\ncolour = blue\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = cli.run("serve", "--config", config)
        #expect(result.code == 1)
        #expect(result.err.contains("slate.conf:2: unknown key 'colour'"))
        #expect(!FileManager.default.fileExists(atPath: cli.database))
        #expect(cli.run("serve", "--config", cli.folder.appendingPathComponent("missing.conf").path).err.contains("cannot read"))
    }

    @Test func secretsNeverAppearInMessages() throws {
        let cli = try CLIHarness()
        let secret = "PRIVATE-KEY-MATERIAL-\(UUID().uuidString)"
        let keyFile = cli.folder.appendingPathComponent("tls.key").path
        try secret.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let certificate = cli.folder.appendingPathComponent("cert.pem").path
        try "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".write(toFile: certificate, atomically: true, encoding: .utf8)
        let config = cli.folder.appendingPathComponent("slate.conf").path
        try "tls_certificate = cert.pem\ntls_key = tls.key\nport = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = cli.run("serve", "--config", config)
        #expect(result.code == 1)
        #expect(result.err.contains("not a PEM private key"))
        #expect(!(result.out + result.err).contains(secret))
    }

    @Test func aCredentialIsReadFromTheCredentialsDirectory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "key bytes".write(to: folder.appendingPathComponent("tls.key"), atomically: true, encoding: .utf8)
        let data = try SecretFile.read("credential:tls.key", option: "tls-key", environment: ["CREDENTIALS_DIRECTORY": folder.path])
        #expect(String(decoding: data, as: UTF8.self) == "key bytes")
        #expect(throws: ConfigurationFile.Problem.self) { try SecretFile.read("credential:tls.key", option: "tls-key", environment: [:]) }
        #expect(throws: ConfigurationFile.Problem.self) {
            try SecretFile.read("credential:../etc/passwd", option: "tls-key", environment: ["CREDENTIALS_DIRECTORY": folder.path])
        }
    }

    @Test func commandLineValuesAreCheckedByTheSameRules() throws {
        let cli = try CLIHarness()
        let result = cli.run("serve", "--log-format", "xml")
        #expect(result.code == 2)
        #expect(result.err.contains("invalid value 'xml' for --log-format: expected text or json"))
        #expect(cli.run("serve", "--metrics", "0.0.0.0:9464").err.contains("loopback"))
        #expect(cli.run("serve", "--tls-cert", "/nonexistent.pem").err.contains("go together"))
    }

    private func refusal(_ text: String) -> ConfigurationFile.Problem? {
        do {
            _ = try ConfigurationFile(text: text, path: "slate.conf")
            return nil
        } catch {
            return error as? ConfigurationFile.Problem
        }
    }
}

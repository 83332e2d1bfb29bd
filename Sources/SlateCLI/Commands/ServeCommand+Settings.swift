import Foundation
import SlateCore
import SlateHTTP

extension ServeCommand {
    /// Checks every option (each by its rule in ``ServeSetting``) and reads the TLS files.
    static func settings(_ parsed: ParsedCommand, _ session: Session) throws -> Settings {
        for setting in ServeSetting.all where setting.kind == .value || setting.kind == .secretFile {
            for value in parsed.allValues(setting.option) {
                guard let problem = setting.problem(with: value) else { continue }
                let shown = setting.kind == .secretFile ? "(hidden)" : value
                throw session.invalidValue(shown, option: setting.option, expected: String(problem.dropFirst("expected ".count)), path: parsed.path)
            }
        }
        var settings = Settings()
        settings.configuration.host = parsed.value("host") ?? "127.0.0.1"
        settings.configuration.port = parsed.value("port").flatMap(Int.init) ?? 8080
        if let text = parsed.value("max-connections"), let count = Int(text) { settings.configuration.maxConnections = count }
        if let text = parsed.value("connections-per-ip"), let count = Int(text) { settings.configuration.connectionsPerIP = count }
        if let text = parsed.value("streams-per-account"), let count = Int(text) { settings.streamsPerAccount = count }
        if let text = parsed.value("max-body-size"), let bytes = ServeSetting.byteCount(text) { settings.configuration.maxBodySize = bytes }
        settings.logFormat = parsed.value("log-format").flatMap(ServiceLog.Format.init(rawValue:)) ?? .text
        settings.logLevel = parsed.value("log-level").flatMap(accessLevel) ?? .all
        let proxies = try ServerCommands.trustedProxies(parsed, session)
        settings.configuration.trustedProxies = proxies
        // Every client of a proxy shares its address: the per-address cap would count them
        // together, so it is off unless asked for (the proxy limits its own clients).
        if !proxies.isEmpty, parsed.value("connections-per-ip") == nil { settings.configuration.connectionsPerIP = 0 }
        settings.secureCookies = !proxies.isEmpty
        settings.strictTransportSecurity = !proxies.isEmpty
        if let text = parsed.value("metrics"), text != "off" { settings.metrics = ServeSetting.metricsAddress(text) }
        settings.configuration.tls = try tlsIdentity(parsed, session)
        if settings.configuration.tls != nil {
            settings.secureCookies = true
            settings.strictTransportSecurity = true
        }
        settings.webRoot = try webRoot(parsed)
        return settings
    }

    /// The certificate and key, both or neither.
    static func tlsIdentity(_ parsed: ParsedCommand, _ session: Session) throws -> TLSIdentity? {
        switch (parsed.value("tls-cert"), parsed.value("tls-key")) {
        case (nil, nil):
            return nil
        case (.some, nil), (nil, .some):
            throw UsageError(message: "--tls-cert and --tls-key go together: give both (or tls_certificate and tls_key).", command: parsed.path)
        case (.some(let certificate), .some(let key)):
            do {
                let certificatePEM = try SecretFile.read(certificate, option: "tls-cert", environment: session.environment)
                let keyPEM = try SecretFile.read(key, option: "tls-key", environment: session.environment)
                return try TLSIdentity(certificatePEM: certificatePEM, keyPEM: keyPEM)
            } catch let problem as ConfigurationFile.Problem {
                throw SlateError.invalid(field: "tls", message: problem.description)
            } catch let error as HTTPServerError {
                throw SlateError.invalid(field: "tls", message: error.message)
            }
        }
    }

    /// `--web`, else the installed web app (`../share/slate/web` from the executable), else
    /// `Web` in the working folder (a checkout); nil serves the API only.
    static func webRoot(_ parsed: ParsedCommand) throws -> String? {
        if let folder = parsed.value("web") {
            guard FileManager.default.fileExists(atPath: folder + "/index.html") else {
                throw SlateError.invalid(field: "web", message: "The web app folder \(folder) has no index.html.")
            }
            return folder
        }
        return [installedWebRoot(), "Web"].compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0 + "/index.html") }
    }

    /// `<prefix>/share/slate/web` for an executable at `<prefix>/bin/slate`.
    static func installedWebRoot() -> String? {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Bundle.main.executablePath
        guard let executable else { return nil }
        let bin = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        return bin.deletingLastPathComponent().appendingPathComponent("share/slate/web").path
    }
}

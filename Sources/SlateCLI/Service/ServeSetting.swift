import Foundation
import SlateCore
import SlateHTTP

/// One setting of `slate serve`: its key in the configuration file, the command-line
/// option it stands for, and the values it accepts. The table below is the one place
/// that maps the file onto the options, so both are checked by the same rule.
struct ServeSetting: Sendable {
    /// How a setting's value is read.
    enum Kind: Sendable {
        /// Text checked by `accepts`.
        case value
        /// Values separated by commas, each checked by `accepts`: a repeatable option.
        case list
        /// `true` or `false`: sets the option's flag.
        case flag
        /// A path to a file whose contents are secret: never printed or logged.
        case secretFile
    }

    /// The key in the configuration file, such as `max_connections`.
    var key: String
    /// The `slate serve` option it sets, such as `max-connections`.
    var option: String
    var kind: Kind = .value
    /// The accepted forms, in words, for error messages.
    var forms: String
    /// True when `value` is one of the accepted forms.
    var accepts: @Sendable (String) -> Bool = { _ in true }

    /// The value's problem in words, or nil when it is accepted.
    func problem(with value: String) -> String? {
        switch kind {
        case .flag: return ["true", "false"].contains(value) ? nil : "expected true or false"
        case .value, .secretFile: return accepts(value) ? nil : "expected \(forms)"
        case .list:
            let items = Self.items(value)
            return !items.isEmpty && items.allSatisfy(accepts) ? nil : "expected \(forms)"
        }
    }

    /// Every setting `slate serve --config` reads.
    static let all: [ServeSetting] = [
        ServeSetting(key: "host", option: "host", forms: "an IPv4 or IPv6 address such as 127.0.0.1, 0.0.0.0 or ::1",
                     accepts: isAddress),
        ServeSetting(key: "port", option: "port", forms: "a port number from 0 to 65535",
                     accepts: { Int($0).map { (0...65535).contains($0) } ?? false }),
        ServeSetting(key: "database", option: "db", forms: "the path of the database file, or a postgresql:// URL",
                     accepts: { !$0.isEmpty }),
        ServeSetting(key: "database_password_file", option: "database-password-file", kind: .secretFile,
                     forms: "the path of a file holding the PostgreSQL password, or credential:NAME for a systemd credential",
                     accepts: { !$0.isEmpty }),
        ServeSetting(key: "database_pool", option: "database-pool", forms: "a count of reader connections from 1 to 64",
                     accepts: { Int($0).map { (1...64).contains($0) } ?? false }),
        ServeSetting(key: "web", option: "web", forms: "the path of the web app's folder", accepts: { !$0.isEmpty }),
        ServeSetting(key: "tls_certificate", option: "tls-cert", forms: "the path of a PEM certificate (chain) file",
                     accepts: { !$0.isEmpty }),
        ServeSetting(key: "tls_key", option: "tls-key", kind: .secretFile,
                     forms: "the path of a PEM private key file, or credential:NAME for a systemd credential",
                     accepts: { !$0.isEmpty }),
        ServeSetting(key: "trusted_proxies", option: "trusted-proxy", kind: .list,
                     forms: "IP addresses or CIDR ranges separated by commas, such as 127.0.0.1, ::1 or 10.0.0.0/8",
                     accepts: { AddressRange($0) != nil }),
        ServeSetting(key: "behind_proxy", option: "behind-proxy", kind: .flag,
                     forms: "true or false (deprecated: trusted_proxies = 127.0.0.1, ::1)"),
        ServeSetting(key: "log_format", option: "log-format", forms: "text or json", accepts: { ["text", "json"].contains($0) }),
        ServeSetting(key: "log_level", option: "log-level", forms: "all, errors or off",
                     accepts: { ["all", "errors", "off"].contains($0) }),
        ServeSetting(key: "max_connections", option: "max-connections", forms: "a count of 1 or more",
                     accepts: { Int($0).map { $0 >= 1 } ?? false }),
        ServeSetting(key: "connections_per_ip", option: "connections-per-ip", forms: "a count of 0 (unlimited) or more",
                     accepts: { Int($0).map { $0 >= 0 } ?? false }),
        ServeSetting(key: "streams_per_account", option: "streams-per-account", forms: "a count of 1 or more",
                     accepts: { Int($0).map { $0 >= 1 } ?? false }),
        ServeSetting(key: "max_body_size", option: "max-body-size", forms: "a size in bytes from 1024 to 1073741824, or with KiB, MiB or GiB",
                     accepts: { byteCount($0) != nil }),
        ServeSetting(key: "metrics", option: "metrics", forms: "off, or a loopback address and port such as 127.0.0.1:9464",
                     accepts: { $0 == "off" || metricsAddress($0) != nil }),
        ServeSetting(key: "missed_alerts_max_age", option: "missed-alerts-max-age", forms: "an age such as 30m, 12h or 1d",
                     accepts: { text in
                         guard let alert = try? TaskAlert(parsing: text), case .beforeDue(let seconds) = alert.trigger else { return false }
                         return seconds > 0
                     }),
        ServeSetting(key: "public_url", option: "public-url", forms: "an http:// or https:// address such as https://tasks.example.org",
                     accepts: { isWebAddress($0) }),
        ServeSetting(key: "smtp_url", option: "smtp-url", forms: "smtp://host[:port] or smtps://host[:port]",
                     accepts: { $0.hasPrefix("smtp://") || $0.hasPrefix("smtps://") }),
        ServeSetting(key: "smtp_from", option: "smtp-from", forms: "an email address such as slate@example.org",
                     accepts: { (try? AlertRules.validEmail($0)) != nil }),
        ServeSetting(key: "smtp_credentials", option: "smtp-credentials", kind: .secretFile,
                     forms: "the path of a file holding user:password, or credential:NAME for a systemd credential",
                     accepts: { !$0.isEmpty }),
        ServeSetting(key: "smtp_require_tls", option: "smtp-require-tls", kind: .flag, forms: "true or false"),
    ]

    static func named(_ key: String) -> ServeSetting? { all.first { $0.key == key } }

    /// `a, b,c` → ["a", "b", "c"].
    static func items(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    static func forOption(_ option: String) -> ServeSetting? { all.first { $0.option == option } }

    /// True for `http://host…` or `https://host…`.
    static func isWebAddress(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme) else { return false }
        return url.host.map { !$0.isEmpty } ?? false
    }

    /// True for an IPv4 or IPv6 literal.
    static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// `4096`, `512KiB`, `4MiB`, `1GiB` → bytes, within 1 KiB…1 GiB; nil otherwise.
    static func byteCount(_ text: String) -> Int? {
        let units: [(String, Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("", 1)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let number = Int(text.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)) else { return nil }
            let (bytes, overflow) = number.multipliedReportingOverflow(by: scale)
            return !overflow && (1 << 10...1 << 30).contains(bytes) ? bytes : nil
        }
        return nil
    }

    /// `127.0.0.1:9464` or `[::1]:9464` → (host, port), loopback only; nil otherwise.
    static func metricsAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        guard host == "::1" || (host.hasPrefix("127.") && isAddress(host) && !host.contains(":")) else { return nil }
        return (host, port)
    }
}

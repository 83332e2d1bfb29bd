import Foundation

/// The file `slate serve --config FILE` reads: one `key = value` per line, `#` starts a
/// comment line, blank lines are skipped, a value may be put in double quotes. Every key
/// is one of ``ServeSetting/all``; an unknown key, a repeated key or a bad value is refused
/// with its line number and the accepted forms.
///
/// ```
/// # /etc/slate/slate.conf
/// host = 127.0.0.1
/// port = 8080
/// log_format = json
/// tls_key = credential:tls.key
/// ```
struct ConfigurationFile {
    /// One accepted line.
    struct Entry {
        var setting: ServeSetting
        var value: String
        var line: Int
    }

    /// Where the file is, for messages and for relative paths.
    let path: String
    /// The accepted entries in file order.
    private(set) var entries: [Entry] = []

    /// The largest file read: a configuration is a few dozen lines.
    static let maximumSize = 64 << 10

    /// A refused file: `path:line: message`.
    struct Problem: Error, CustomStringConvertible {
        var path: String
        var line: Int?
        var message: String
        var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
    }

    /// Reads and checks the file at `path`.
    init(contentsOf path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Problem(path: path, line: nil, message: "cannot read the configuration file (missing or not readable).")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: Self.maximumSize + 1)) ?? Data()
        guard data.count <= Self.maximumSize else {
            throw Problem(path: path, line: nil, message: "the file is larger than \(Self.maximumSize / 1024) KiB; a configuration is a few lines.")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(path: path, line: nil, message: "the file is not UTF-8 text.")
        }
        try self.init(text: text, path: path)
    }

    /// Checks `text` as if read from `path`.
    init(text: String, path: String) throws {
        self.path = path
        var seen: [String: Int] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            func refuse(_ message: String) -> Problem { Problem(path: path, line: number, message: message) }
            guard let equals = line.firstIndex(of: "=") else {
                throw refuse("expected key = value (or a # comment), not '\(line.prefix(40))'.")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard let setting = ServeSetting.named(key) else {
                throw refuse("unknown key '\(key.prefix(40))'; the keys are \(ServeSetting.all.map(\.key).joined(separator: ", ")).")
            }
            if let first = seen[key] { throw refuse("\(key) is already set on line \(first).") }
            seen[key] = number
            if let problem = setting.problem(with: value) {
                // A secret's value is never repeated back, nor a URL (it may hold a password).
                let shown = setting.kind == .secretFile || value.contains("://") ? "" : " '\(value.prefix(80))'"
                throw refuse("invalid value\(shown) for \(key): \(problem).")
            }
            entries.append(Entry(setting: setting, value: value, line: number))
        }
    }

    /// The file's settings as command-line option values, with paths made absolute
    /// against the file's folder; options given on the command line win.
    func merged(into parsed: ParsedCommand) -> ParsedCommand {
        var merged = parsed
        let folder = (path as NSString).deletingLastPathComponent
        for entry in entries where parsed.values[entry.setting.option] == nil && !parsed.flag(entry.setting.option) {
            // One way to name proxies: --trusted-proxy or --behind-proxy on the command line wins.
            if entry.setting.option == "trusted-proxy" || entry.setting.option == "behind-proxy",
               parsed.values["trusted-proxy"] != nil || parsed.flag("behind-proxy") { continue }
            switch entry.setting.kind {
            case .flag:
                if entry.value == "true" { merged.flags.insert(entry.setting.option) }
            case .list:
                merged.values[entry.setting.option] = ServeSetting.items(entry.value)
            case .value, .secretFile:
                var value = entry.value
                if ["db", "web", "tls-cert", "tls-key", "smtp-credentials", "database-password-file"].contains(entry.setting.option),
                   !value.hasPrefix("/"), !value.hasPrefix(SecretFile.credentialPrefix),
                   !value.hasPrefix("postgresql://"), !value.hasPrefix("postgres://"), !folder.isEmpty {
                    value = folder + "/" + value
                }
                merged.values[entry.setting.option] = [value]
            }
        }
        return merged
    }
}

/// Reads secrets (a TLS key) from files or systemd credentials without ever putting them
/// in a message.
enum SecretFile {
    /// `credential:NAME` reads `$CREDENTIALS_DIRECTORY/NAME` (systemd's `LoadCredential=`).
    static let credentialPrefix = "credential:"

    /// The largest secret file read.
    static let maximumSize = 1 << 20

    /// The contents of the file `reference` names; `option` names it in errors.
    static func read(_ reference: String, option: String, environment: [String: String]) throws -> Data {
        var path = reference
        if reference.hasPrefix(credentialPrefix) {
            let name = String(reference.dropFirst(credentialPrefix.count))
            guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
                throw ConfigurationFile.Problem(
                    path: "--\(option)", line: nil,
                    message: "\(reference) needs $CREDENTIALS_DIRECTORY (set by systemd's LoadCredential=); it is not set.")
            }
            guard !name.isEmpty, !name.contains("/") else {
                throw ConfigurationFile.Problem(path: "--\(option)", line: nil, message: "a credential name is one file name, such as credential:tls.key.")
            }
            path = directory + "/" + name
        }
        guard let handle = FileHandle(forReadingAtPath: path),
              let data = try? handle.read(upToCount: maximumSize + 1), data.count <= maximumSize, !data.isEmpty else {
            throw ConfigurationFile.Problem(
                path: "--\(option)", line: nil, message: "cannot read \(path) (missing, empty, unreadable or over 1 MiB).")
        }
        return data
    }
}

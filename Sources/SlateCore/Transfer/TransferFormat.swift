import Foundation

/// The file formats Slate exports and imports.
///
/// ```swift
/// let backup = try slate.export(.json)
/// let summary = try otherSlate.importData(backup, format: nil)   // detected: json
/// ```
public enum TransferFormat: String, CaseIterable, Sendable {
    /// Slate's own format: every field of every list and task, ids and numbers included.
    case json
    /// iCalendar (RFC 5545): one VCALENDAR with one VTODO per task.
    case ics
    /// todo.txt: one task per line, lists as `+projects`, tags as `@contexts`.
    case todotxt
    /// Taskwarrior's JSON export: an array of task objects, for `task import`.
    case taskwarrior

    /// The largest file `Slate.importData` reads: 64 MiB. (The server's body limit is
    /// lower: `POST /api/v1/import` takes what one request may carry.)
    public static let maximumImportBytes = 64 << 20
    /// The most tasks one import may hold: 100,000.
    public static let maximumImportTasks = 100_000

    /// The usual file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .json: "json"
        case .ics: "ics"
        case .todotxt: "txt"
        case .taskwarrior: "json"
        }
    }

    /// The media type to serve the format with.
    public var mediaType: String {
        switch self {
        case .json, .taskwarrior: "application/json"
        case .ics: "text/calendar; charset=utf-8"
        case .todotxt: "text/plain; charset=utf-8"
        }
    }

    /// The format of `data`, judged from its content:
    /// a JSON object with `"format": "slate"` is `json`; any other JSON array or object is
    /// `taskwarrior` (its export is an array; older versions wrote one object per line);
    /// text starting `BEGIN:VCALENDAR` is `ics`; anything else is `todotxt`.
    ///
    /// JSON is recognised by its first two tokens (`[{`, `[]`, `{"`, `{}`), so that a todo.txt
    /// line such as `[draft] Write the pitch` stays todo.txt while a broken JSON file is
    /// still read (and refused) as JSON.
    public static func detect(_ data: Data) -> TransferFormat {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let start = bytes.drop(while: isSpace)
        let second = start.dropFirst().first(where: { !isSpace($0) })
        switch (start.first, second) {
        case (UInt8(ascii: "["), UInt8(ascii: "{")?), (UInt8(ascii: "["), UInt8(ascii: "]")?):
            return .taskwarrior
        case (UInt8(ascii: "{"), UInt8(ascii: "\"")?), (UInt8(ascii: "{"), UInt8(ascii: "}")?):
            if let value = try? JSONValue.parse(data), case .object(let object) = value,
               object["format"] == .string(SlateJSONFormat.formatName) {
                return .json
            }
            // A Slate export that does not parse (cut short, a key given twice) is still one:
            // read as such, its error names what is wrong, not "line 1" of a Taskwarrior file.
            let head = String(decoding: start.prefix(512).filter { !isSpace($0) }, as: UTF8.self)
            if head.contains("\"format\":\"\(SlateJSONFormat.formatName)\"") { return .json }
            return .taskwarrior
        default:
            let head = String(decoding: start.prefix(15), as: UTF8.self).uppercased()
            return head.hasPrefix("BEGIN:VCALENDAR") ? .ics : .todotxt
        }
    }
}

/// What an import did.
public struct ImportSummary: Sendable, Hashable {
    /// Lists that did not exist and were created.
    public var listsCreated: Int
    /// Tasks that did not exist and were created.
    public var tasksCreated: Int
    /// Tasks that existed (same id) and were overwritten with the file's values.
    public var tasksUpdated: Int

    public init(listsCreated: Int = 0, tasksCreated: Int = 0, tasksUpdated: Int = 0) {
        self.listsCreated = listsCreated
        self.tasksCreated = tasksCreated
        self.tasksUpdated = tasksUpdated
    }
}

/// Why a file cannot be imported: where (a line, or a record of a JSON file), which field,
/// and what is wrong. Nothing was written when it is thrown.
///
/// ```swift
/// "line 12: DUE has an invalid date '20261301'"
/// "task 3: priority must be one of none, low, … ; got 'urgent'"
/// ```
public struct ImportError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
    /// Where in the file the problem is.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        /// The file as a whole (not the expected format, not UTF-8, …).
        case file
        /// A line of a text format (1-based; for iCalendar the first line of a folded property).
        case line(Int)
        /// A record of a JSON format: `kind` is "task" or "list", `index` is 1-based.
        case record(kind: String, index: Int)

        public var description: String {
            switch self {
            case .file: "the file"
            case .line(let number): "line \(number)"
            case .record(let kind, let index): "\(kind) \(index)"
            }
        }
    }

    public var location: Location
    /// The field, property or key at fault (`due`, `DUE`, `priority`); nil when it is the record itself.
    public var field: String?
    /// What is wrong, naming the field and the accepted forms.
    public var message: String

    public init(_ location: Location, field: String?, _ message: String) {
        self.location = location
        self.field = field
        self.message = message
    }

    public var description: String {
        location == .file ? message : "\(location): \(message)"
    }

    public var errorDescription: String? { description }
}

import Foundation
import SlateStore

/// What the task domain refuses, in words a person can act on. Each case names the
/// field or the thing it is about, so every surface can point at it.
public enum SlateError: Error, Sendable, Equatable {
    /// A value breaks a rule: `field` is the input's name, `message` says the rule
    /// and the accepted forms.
    case invalid(field: String, message: String)
    /// Nothing matches the reference (`task #12`, `list "Story"`).
    case notFound(String)
    /// A short id prefix matches several tasks: the first few (`#12 “Call the lab”`), and
    /// whether there are more.
    case ambiguous(String, matches: [String], more: Bool)
    /// A list with that name exists already (names are unique, ignoring case).
    case duplicateListName(String)
    /// Someone else changed the thing since it was read.
    case conflict(String, currentRevision: Int)
    /// A change cannot be undone (not in the history, or a later change touched the same rows).
    case cannotUndo(String)
    /// The database stayed locked (by another process) longer than it waits: try again.
    case busy
    /// The database server cannot be reached right now (restarting, the network): try again
    /// in a moment. The message names the server (never its password), for the log.
    case unavailable(String)
    /// The store failed unexpectedly. The message holds the details (which may include SQL
    /// or a file path): for the server's log and the local command line, never for a client.
    case store(String)

    /// A stable, machine-readable name of the kind of error, the same on every surface:
    /// `invalid_field`, `not_found`, `ambiguous`, `duplicate_name`, `stale`, `cannot_undo`,
    /// `busy`, `unavailable`, `internal_error`.
    public var code: String {
        switch self {
        case .invalid: "invalid_field"
        case .notFound: "not_found"
        case .ambiguous: "ambiguous"
        case .duplicateListName: "duplicate_name"
        case .conflict: "stale"
        case .cannotUndo: "cannot_undo"
        case .busy: "busy"
        case .unavailable: "unavailable"
        case .store: "internal_error"
        }
    }

    /// True for a failure of the system rather than of the request: details are logged,
    /// and a client is told only that something went wrong.
    public var isInternal: Bool {
        if case .store = self { return true }
        return false
    }

    /// The input field the error is about, if any.
    public var field: String? {
        switch self {
        case .invalid(let field, _): field
        case .duplicateListName: "name"
        default: nil
        }
    }
}

extension SlateError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .invalid(_, let message): message
        case .notFound(let what): "No \(what)" + (what.hasSuffix("?") ? "" : ".")
        case .ambiguous(let prefix, let matches, let more):
            "'\(prefix)' matches \(more ? "more than \(matches.count)" : "\(matches.count)") tasks: "
                + matches.joined(separator: ", ") + (more ? ", …" : "") + "; give more of the id or use the number."
        case .duplicateListName(let name): "A list named \"\(name)\" already exists."
        case .conflict(let what, _): "\(what) was changed by someone else; reload it and try again."
        case .cannotUndo(let message): message
        case .busy: "The database is busy (another program is writing to it); try again in a moment."
        case .unavailable(let details): "\(SlateError.unavailableMessage) (\(details))"
        case .store(let message): message
        }
    }

    public var errorDescription: String? { description }
}

extension SlateError {
    /// What a client is told when the database cannot be reached (the details are the
    /// server's to log).
    public static let unavailableMessage = "The database cannot be reached right now; try again in a moment."

    /// The domain's reading of a failure of the database itself that is nobody's mistake and
    /// passes (it is locked, or cannot be reached), wherever it was thrown; nil for anything
    /// else. Surfaces answer it as 503 rather than as an internal error.
    public static func transient(_ error: any Error) -> SlateError? {
        if let error = error as? SlateError {
            switch error {
            case .busy, .unavailable: return error
            default: return nil
            }
        }
        guard let error = error as? StoreError else { return nil }
        switch error {
        case .busy, .unavailable: return SlateError(error)
        default: return nil
        }
    }
}

extension Slate {
    /// Runs a store call, translating store errors into domain errors by their kind (never
    /// by their text); anything unexpected becomes `.store` with the details for the log.
    @discardableResult
    func translatingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw SlateError(error)
        }
    }
}

extension SlateError {
    /// The domain's reading of a store error.
    init(_ error: StoreError) {
        switch error {
        case .conflict(let model, _, _, let actual):
            self = .conflict(model == "TaskList" ? "The list" : "The task", currentRevision: actual)
        case .notFound(let model, _):
            self = .notFound(model == "TaskList" ? "such list" : "such task")
        case .constraintViolation(let table, _) where table == TaskList.schema.tableName:
            // The only rule of the lists table a valid change can break is the unique name
            // (two processes adding the same name at once; each checked first).
            self = .duplicateListName("that name")
        case .busy:
            self = .busy
        case .unavailable:
            self = .unavailable(error.description)
        default:
            self = .store(error.description)
        }
    }
}

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
    /// A short id prefix matches several tasks.
    case ambiguous(String, matches: Int)
    /// A list with that name exists already (names are unique, ignoring case).
    case duplicateListName(String)
    /// Someone else changed the thing since it was read.
    case conflict(String, currentRevision: Int)
    /// A change cannot be undone (not in the history, or a later change touched the same rows).
    case cannotUndo(String)
    /// The store failed; the message says why.
    case store(String)

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
        case .ambiguous(let prefix, let matches): "'\(prefix)' matches \(matches) tasks; give more of the id or use the number."
        case .duplicateListName(let name): "A list named \"\(name)\" already exists."
        case .conflict(let what, _): "\(what) was changed by someone else; reload it and try again."
        case .cannotUndo(let message): message
        case .store(let message): message
        }
    }

    public var errorDescription: String? { description }
}

extension Slate {
    /// Runs a store call, translating store errors into domain errors.
    @discardableResult
    func translatingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            switch error {
            case .conflict(let model, _, _, let actual):
                throw SlateError.conflict(model == "TaskList" ? "The list" : "The task", currentRevision: actual)
            case .notFound(let model, _):
                throw SlateError.notFound(model == "TaskList" ? "such list" : "such task")
            case .constraintViolation(let table, let message) where table == "lists" && message.contains("UNIQUE"):
                throw SlateError.duplicateListName("that name")
            default:
                throw SlateError.store(error.description)
            }
        }
    }
}

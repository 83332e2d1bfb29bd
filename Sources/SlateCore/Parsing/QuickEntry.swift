import Foundation

/// What one line of quick entry means: a task's title and whatever else the line said.
///
/// `Storyboard the inciting incident tomorrow 5pm !high #Story` reads as the title
/// "Storyboard the inciting incident", due tomorrow at 17:00, priority high, list "Story".
/// `understood` lists the recognised pieces in the order they were typed, so a surface can show
/// the line back to the user. See QuickEntryParser.swift for the grammar.
public struct QuickEntry: Sendable, Hashable, Codable {
    /// What is left of the line: never blank, white space collapsed, quotes removed.
    public var title: String
    public var due: DueDate?
    /// Nil when the line named none (quick entry does not default to medium).
    public var priority: Priority?
    /// The list name as typed (`#story` gives "story"); matching it to a list, without case, is
    /// the caller's job.
    public var listName: String?
    /// From `@tag` tokens: lower-cased, without `@`, first occurrence first, no duplicates.
    public var tags: [String]
    public var recurrence: Recurrence?
    /// True when the line has a `!flag` token.
    public var isFlagged: Bool
    /// The text after a standalone `//`, trimmed; nil when there is none.
    public var notes: String?
    /// From `^15m`, `^1d@9:00`, `^due` tokens, in the order typed; nil when the line named
    /// none (the account's default alerts apply).
    public var alerts: [TaskAlert]?
    /// The recognised pieces, in the order they appear in the line.
    public var understood: [Part]
    /// What looked like a date but is none (`feb 30`), left in the title, each said in a
    /// sentence; empty when there is nothing to say.
    public var warnings: [String] = []

    public init(
        title: String, due: DueDate? = nil, priority: Priority? = nil, listName: String? = nil,
        tags: [String] = [], recurrence: Recurrence? = nil, isFlagged: Bool = false, notes: String? = nil,
        understood: [Part] = []
    ) {
        self.title = title
        self.due = due
        self.priority = priority
        self.listName = listName
        self.tags = tags
        self.recurrence = recurrence
        self.isFlagged = isFlagged
        self.notes = notes
        self.understood = understood
    }

    /// One recognised piece of the line, for showing back what was understood.
    public struct Part: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            case due, priority, list, tag, recurrence, flag, notes, alert
        }

        public var kind: Kind
        /// The words as typed, e.g. "tomorrow 5pm", "!high", "#Story".
        public var text: String
        /// Where `text` sits in the line, in UTF-16 code units — the unit JavaScript strings use,
        /// so the web app can highlight it in the input as typed. A date split by the line's
        /// other tokens is not joined up, so ranges never overlap — except that `every monday`
        /// is both the recurrence and, when the line names no day, the due date.
        public var utf16Range: Range<Int>
        /// What it was read as: "Tomorrow 17:00", "high", "Story", "every week", "flagged".
        public var description: String

        public init(kind: Kind, text: String, utf16Range: Range<Int>, description: String) {
            self.kind = kind
            self.text = text
            self.utf16Range = utf16Range
            self.description = description
        }
    }
}

/// Why a quick-entry line could not become a task. The messages are meant for the user as is.
public enum QuickEntryError: Error, Sendable, Hashable, LocalizedError {
    /// Nothing is left for the title once the date, priority, list and tags are taken out.
    case blankTitle
    /// A `!word` that is not a priority, e.g. "!urgent"; carries the token as typed.
    case unknownPriority(String)
    /// Two different priorities, as typed: ("!high", "!low").
    case twoPriorities(String, String)
    /// Two different lists, as typed: ("#Story", "#Sound").
    case twoLists(String, String)
    /// A `^word` that is not an alert, e.g. "^soon"; carries the token as typed.
    case unknownAlert(String)
    /// A `due:` token whose date cannot be read, e.g. "due:someday"; carries the token as typed.
    case unknownDue(String)
    /// Two different `due:` dates, as typed: ("due:fri", "due:mon").
    case twoDueDates(String, String)
    /// "every 0 days" and its kind: a repeat whose number no recurrence takes, as typed.
    case repeatOutOfRange(String)

    public var errorDescription: String? {
        switch self {
        case .blankTitle:
            "A task needs a title. To keep a word such as tomorrow or #Story in the title, put it in quotes: \"tomorrow\"."
        case .unknownPriority(let token):
            "Unknown priority \"\(token)\". \(Self.priorityForms); !flag flags the task. "
                + "To keep the word in the title, write \\\(token)."
        case .twoPriorities(let first, let second):
            "Two priorities given, \"\(first)\" and \"\(second)\": keep one."
        case .twoLists(let first, let second):
            "Two lists given, \"\(first)\" and \"\(second)\": a task belongs to one list."
        case .unknownAlert(let token):
            "Unknown alert \"\(token)\". After ^ use \(TaskAlert.acceptedForms). "
                + "To keep the word in the title, write \\\(token)."
        case .unknownDue(let token):
            "Unknown due date \"\(token)\". After due: use \(DueToken.acceptedForms), "
                + "joining a date's words with -. To keep the word in the title, write \\\(token)."
        case .twoDueDates(let first, let second):
            "Two due dates given, \"\(first)\" and \"\(second)\": keep one."
        case .repeatOutOfRange(let phrase):
            "\"\(phrase)\" cannot repeat: the number must be 1 to 9999, as in every 2 days or every other week. "
                + "To keep the words in the title, put them in quotes: \"\(phrase)\"."
        }
    }

    /// "Use !none, !low, !medium, !high or !critical (or !0 to !4, or !! to !!!!)", built from
    /// `Priority` so it follows the model. `Priority.acceptedForms` is phrased for option values
    /// ("high", "!!"), where a leading `!` is not part of the syntax, so it is not reused verbatim.
    static let priorityForms: String = {
        let names = Priority.allCases.map { "!" + $0.name }
        return "Use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")"
            + " (or !0 to !\(Priority.critical.rawValue), or !! to \(Priority.critical.marks))"
    }()
}

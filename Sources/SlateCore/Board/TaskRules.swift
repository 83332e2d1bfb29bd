import Foundation

/// The rules for what a task or list may hold, shared by every surface.
public enum TaskRules {
    /// The longest title accepted, in characters.
    public static let maximumTitleLength = 500
    /// The longest notes accepted, in characters.
    public static let maximumNotesLength = 100_000
    /// The longest list name accepted.
    public static let maximumListNameLength = 100
    /// The longest tag accepted.
    public static let maximumTagLength = 50
    /// The longest icon name accepted.
    public static let maximumIconLength = 64
    /// The largest repeat interval ("every 1000 days").
    public static let maximumRecurrenceInterval = 1000

    /// The title trimmed, or an error when it is blank or too long.
    public static func validTitle(_ title: String, field: String = "title") throws -> String {
        let trimmed = trimmedWhitespace(title)
        guard !trimmed.isEmpty else { throw SlateError.invalid(field: field, message: "The title cannot be blank.") }
        guard trimmed.count <= maximumTitleLength else {
            throw SlateError.invalid(field: field, message: "The title is \(trimmed.count) characters; at most \(maximumTitleLength) are allowed.")
        }
        try refuseControlCharacters(trimmed, field: field, what: "The title")
        return trimmed
    }

    /// Notes as given (line breaks kept), or an error when too long.
    public static func validNotes(_ notes: String) throws -> String {
        guard notes.count <= maximumNotesLength else {
            throw SlateError.invalid(field: "notes", message: "The notes are \(notes.count) characters; at most \(maximumNotesLength) are allowed.")
        }
        try refuseControlCharacters(notes, field: "notes", what: "The notes", allowingLineBreaks: true)
        return notes
    }

    /// A list name trimmed, or an error when blank or too long.
    public static func validListName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw SlateError.invalid(field: "name", message: "The list name cannot be blank.") }
        guard trimmed.count <= maximumListNameLength else {
            throw SlateError.invalid(field: "name", message: "The list name is \(trimmed.count) characters; at most \(maximumListNameLength) are allowed.")
        }
        try refuseControlCharacters(trimmed, field: "name", what: "The list name")
        guard !isInboxName(trimmed) else {
            throw SlateError.invalid(field: "name", message: "“Inbox” is where tasks without a list are already; choose another name.")
        }
        return trimmed
    }

    /// The name of the tasks without a list, which no list may take.
    public static let inboxName = "Inbox"

    /// True for "Inbox" in any case, with white space around it.
    public static func isInboxName(_ name: String) -> Bool {
        name.trimmingCharacters(in: .whitespaces).lowercased() == inboxName.lowercased()
    }

    /// `#RRGGBB` in upper case, from `#rrggbb` or `rrggbb`; an error for anything else.
    public static func validColor(_ color: String) throws -> String {
        var hex = color.trimmingCharacters(in: .whitespaces)
        if hex.hasPrefix("#") { hex.removeFirst() }
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit) else {
            throw SlateError.invalid(field: "color", message: "The colour must be #RRGGBB, six hexadecimal digits such as #FF6B6B; got '\(color)'.")
        }
        return "#" + hex.uppercased()
    }

    /// An icon name: letters, digits, dots and dashes, at most 64 characters.
    public static func validIcon(_ icon: String) throws -> String {
        let trimmed = icon.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= maximumIconLength,
              trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
        else {
            throw SlateError.invalid(field: "icon", message: "The icon must be a name of letters, digits, dots and dashes, such as film or music.note; got '\(icon)'.")
        }
        return trimmed
    }

    /// A tag without `@` or `#`, lower-cased, spaces turned into dashes.
    public static func normalizedTag(_ tag: String) -> String {
        // Printable ASCII without spaces or a leading mark (most tags) only lower-cases:
        // done byte by byte, without Foundation's trimming (13k instructions per tag).
        let utf8 = tag.utf8
        if let first = utf8.first, first != UInt8(ascii: "@"), first != UInt8(ascii: "#"), utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            return String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        var text = tag.trimmingCharacters(in: .whitespaces)
        while text.hasPrefix("@") || text.hasPrefix("#") { text.removeFirst() }
        return text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: "-")
    }

    /// Tags normalised, blank ones dropped, duplicates removed (first kept).
    public static func validTags(_ tags: [String]) throws -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for tag in tags.map(normalizedTag) where !tag.isEmpty {
            guard tag.count <= maximumTagLength else {
                throw SlateError.invalid(field: "tags", message: "The tag '\(tag)' is longer than \(maximumTagLength) characters.")
            }
            try refuseControlCharacters(tag, field: "tags", what: "A tag")
            if seen.insert(tag).inserted { result.append(tag) }
        }
        return result
    }

    /// The text without white space and line breaks at either end: as `trimmingCharacters(in:
    /// .whitespacesAndNewlines)`, which bridges through NSString, but without it when
    /// neither end needs trimming (10k instructions per imported task).
    static func trimmedWhitespace(_ text: String) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            (0x21...0x7E).contains(scalar.value) ? false : CharacterSet.whitespacesAndNewlines.contains(scalar)
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last, !isSpace(first), !isSpace(last)
        else { return text.trimmingCharacters(in: .whitespacesAndNewlines) }
        return text
    }

    /// The text without punctuation at either end (Unicode's general category P*, the
    /// characters of `CharacterSet.punctuationCharacters`): `trimmingCharacters(in:
    /// .punctuationCharacters)` without Foundation's NSString bridge, whose first use in a
    /// process cost a `slate add` 790,000 instructions when the title's words were read.
    static func trimmedPunctuation(_ text: some StringProtocol) -> String {
        func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .otherPunctuation: true
            default: false
            }
        }
        let scalars = text.unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, isPunctuation(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isPunctuation(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    /// Refuses text holding a control character (U+0000–U+001F, U+007F–U+009F), except line
    /// breaks and tabs when `allowingLineBreaks`: a NUL cut text short in C libraries, and
    /// none of them reads as text. (A comparison, not a `Set` literal: the first `Set` of a
    /// type costs a scan of every conformance record, 360k instructions of a `slate add`.)
    static func refuseControlCharacters(_ text: String, field: String, what: String, allowingLineBreaks: Bool = false) throws {
        func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
            allowingLineBreaks && (scalar == "\n" || scalar == "\r" || scalar == "\t")
        }
        guard let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control && !isAllowed($0) })
        else { return }
        let code = String(control.value, radix: 16, uppercase: true)
        let allowed = allowingLineBreaks ? " (line breaks and tabs are fine)" : ""
        let verb = what.hasSuffix("notes") ? "contain" : "contains"
        throw SlateError.invalid(
            field: field,
            message: "\(what) \(verb) the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code); only printable text is accepted\(allowed).")
    }

    /// A recurrence interval of at least 1 and at most 1,000.
    public static func validRecurrence(_ recurrence: Recurrence?) throws -> Recurrence? {
        guard let recurrence else { return nil }
        guard (1...maximumRecurrenceInterval).contains(recurrence.interval) else {
            throw SlateError.invalid(field: "recurrence", message: "The repeat interval must be between 1 and \(maximumRecurrenceInterval); got \(recurrence.interval).")
        }
        return recurrence
    }
}

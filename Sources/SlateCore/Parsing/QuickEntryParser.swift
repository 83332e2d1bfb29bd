import Foundation

// Quick entry: one line becomes a task. Tokens are split at white space; case never matters
// except in the title and list name, which keep what was typed.
//
//   !high !crit !3 !h   priority by any name Priority(name:) knows, after "!"
//   !! !!! !!!!         priority by the marks the app shows: medium, high, critical. A lone
//                       "!" stays text ("Appeler Marie !" is French punctuation, not "low").
//   !urgent             an error naming the token: a misspelt priority should not vanish into
//                       the title. "!?" and "wow!" are text (only "!" + letters/digits counts).
//   !flag               flags the task (one sigil family for both markers; "*" is too common
//                       in pasted text to steal).
//   #Story              list name: letters, digits, "-" and "_", at least one letter, so
//                       "Fix #42" keeps its issue number. Multi-word: #"Toy Story" (or #“…”).
//   @home               tag, same characters as a list name; lower-cased, duplicates dropped.
//                       An email address is not a tag: "@" must start the token.
//   every week, every 2 days, every other month, every monday
//                       recurrence; only the "every …" forms ("Weekly review" stays a title).
//                       "every monday" also sets the due date to that Monday when the line names
//                       no day, keeping a time if one is given ("every monday 9am").
//   tomorrow 5pm, fri, in 3 days, 24 dec, at noon …
//                       the due date: the grammar of DateParser.swift. It is found anywhere in
//                       the line among consecutive plain words; the longest expression wins, and
//                       of equally long ones the last (metadata is usually typed after the
//                       title). At most one is taken; other date words stay in the title.
//                       "sun", "sat", "wed" and "tod" are also English words, so alone they
//                       count only when no title word follows them ("Buy sun cream" is a title;
//                       "Buy cream sun" is due Sunday; "next sun" counts anywhere).
//                       "for", "on", "by" or "due" (up to two) right before the date go with it
//                       when no title text follows the date: "Pay rent for tomorrow" is "Pay
//                       rent", "Report due by fri" is "Report"; "Prepare for monday meeting"
//                       and "For tomorrow" keep their "for".
//   due:tomorrow due:next-fri due:2026-12-24 due:2026-12-24T17:00
//                       the due date as Taskwarrior and todo.txt write it (DueToken.swift): any
//                       date expression, its words joined by "-" or "_". It wins over date words
//                       elsewhere, which then stay in the title. "due:" + anything unreadable is
//                       an error naming the token; two different ones are an error; \due:x is text.
//   "The 5th Wave"      quoted text is always title text; the quotes are removed.
//   \#5 \tomorrow       a backslash keeps one token literal and is removed.
//   ^15m ^1d@9:00 ^due  an alert (TaskAlert's text form after "^"), repeatable; a line with
//                       none leaves the account's default alerts. "^" + anything else that
//                       starts with a letter or digit is an error naming the token; \^15m is text.
//   // call first       everything after a standalone "//" is the notes, unread.
//
// Sigil tokens (!, #, @) that repeat must agree: two different priorities or lists are an
// error rather than a silent choice. What is left, in order and joined by single spaces, is
// the title; a blank title is an error.

/// Reads a quick-entry line into a `QuickEntry`.
///
/// ```swift
/// let entry = try QuickEntryParser(now: .now, calendar: .current)
///     .parse("Storyboard the inciting incident tomorrow 5pm !high #Story")
/// entry.title     // "Storyboard the inciting incident"
/// entry.priority  // .high
/// entry.listName  // "Story"
/// ```
public struct QuickEntryParser: Sendable {
    private let grammar: DateGrammar

    /// - Parameters:
    ///   - now: the moment relative dates count from.
    ///   - calendar: a Gregorian calendar whose `timeZone` is the user's.
    public init(now: Date, calendar: Calendar) {
        grammar = DateGrammar(now: now, calendar: calendar)
    }

    /// A parser that asks `makeCalendar` for the user's calendar only when the line has a
    /// date to read: a line without one ("Call the printer #Finance") never makes a calendar,
    /// which is the costliest thing a short-lived process such as `slate add` would do for it.
    public init(now: Date, makeCalendar: @escaping @Sendable () -> Calendar) {
        grammar = DateGrammar(now: now, makeCalendar: makeCalendar)
    }

    /// Parses one line. Throws `QuickEntryError` when the title ends up blank, for an unknown
    /// `!priority`, `^alert` or `due:` date, for a repeat no recurrence takes ("every 0 days"),
    /// and for two different priorities, lists or `due:` dates.
    public func parse(_ line: String) throws -> QuickEntry {
        let (tokens, notesRange) = QuickEntryTokenizer(line: line).tokens()
        var roles = try tokens.map(role)
        var entry = QuickEntry(title: "")
        var parts: [(start: String.Index, part: QuickEntry.Part)] = []
        func note(_ kind: QuickEntry.Part.Kind, _ range: Range<String.Index>, _ description: String) {
            parts.append((range.lowerBound, part(kind, range, description, in: line)))
        }

        var priorityToken: String?, listToken: String?, dueToken: String?
        var listNamed: String?  // the list the line names, "Inbox" included
        for (token, role) in zip(tokens, roles) {
            switch role {
            case .priority(let priority):
                if let first = priorityToken, entry.priority != priority {
                    throw QuickEntryError.twoPriorities(first, token.text)
                }
                priorityToken = priorityToken ?? token.text
                entry.priority = priority
                note(.priority, token.range, priority.name)
            case .list(let name):
                let typed = String(line[token.range])
                if let first = listToken, listNamed?.lowercased() != name.lowercased() {
                    throw QuickEntryError.twoLists(first, typed)
                }
                listToken = listToken ?? typed
                listNamed = listNamed ?? name
                note(.list, token.range, TaskRules.isInboxName(name) ? TaskRules.inboxName : name)
            case .tag(let tag):
                if !entry.tags.contains(tag) { entry.tags.append(tag) }
                note(.tag, token.range, tag)
            case .flag:
                entry.isFlagged = true
                note(.flag, token.range, "flagged")
            case .alert(let alert):
                if !(entry.alerts ?? []).contains(alert) { entry.alerts = (entry.alerts ?? []) + [alert] }
                note(.alert, token.range, alert.text)
            case .due(let due):
                if let first = dueToken, entry.due != due { throw QuickEntryError.twoDueDates(first, token.text) }
                dueToken = dueToken ?? token.text
                entry.due = due
                note(.due, token.range, due.summary(relativeTo: grammar.now, calendar: grammar.calendar))
            case .text, .literal, .taken:
                break
            }
        }

        // "#Inbox" is where a task without a list is: no list has the name.
        entry.listName = listNamed.flatMap { TaskRules.isInboxName($0) ? nil : $0 }

        var farAhead: String?
        var recurrence = try findRecurrence(tokens, roles, in: line)
        var repeatNote: String?
        if let (span, match) = recurrence, match.weekday != nil || match.recurrence.frequency == .monthly,
           let end = match.weekday != nil ? Self.moreWeekdays(after: span, tokens, roles) : Self.moreDaysOfMonth(after: span, tokens, roles)
        {
            // "every mon and thu", "every month on the 1st and 15th": a repeat has one weekday or
            // day of the month. Read as every Monday and due Thursday, the line would mean
            // neither; the words stay in the title, and it says why.
            for index in span.lowerBound..<end { roles[index] = .literal }
            repeatNote = Self.unsupportedRepeatNote(String(line[Self.range(of: span.lowerBound..<end, in: tokens)]))
            recurrence = nil
        } else if recurrence == nil, let span = Self.unsupportedRepeat(tokens, roles) {
            for index in span { roles[index] = .literal }
            repeatNote = Self.unsupportedRepeatNote(String(line[Self.range(of: span, in: tokens)]))
        }
        if let (span, match) = recurrence {
            for index in span { roles[index] = .taken }
            entry.recurrence = match.recurrence
            note(.recurrence, Self.range(of: span, in: tokens), match.recurrence.phrase)
        }
        // A `due:` token is the due date; date words elsewhere in the line then stay title text.
        if dueToken == nil {
            let dueMatch = findDate(tokens, roles).map { (span: withConnectingWords($0.span, tokens, roles), match: $0.match) }
            for index in dueMatch?.span ?? 0..<0 { roles[index] = .taken }
            var due = dueMatch?.match
            var dueRange = dueMatch.map { Self.range(of: $0.span, in: tokens) }
            // A day and a time typed apart ("Call Bob fri about the contract 3pm"): the longest
            // expression is one of them; the other, found among the words left, completes it
            // when the later of the two ends the title ("Call mom at 5pm about Sunday lunch" is
            // today at 5pm, about Sunday's lunch).
            var otherRange: Range<String.Index>?
            if let found = due, let primary = dueMatch?.span, found.isDayWithoutTime || found.isTimeOnly,
               let other = findDate(tokens, roles, accepting: { found.isTimeOnly ? $0.isDayWithoutTime : $0.isTimeOnly }),
               !roles[max(primary.upperBound, other.span.upperBound)...].contains(where: \.isTitleText)
            {
                for index in other.span { roles[index] = .taken }
                otherRange = Self.range(of: other.span, in: tokens)
                due = DateMatch(day: found.day ?? other.match.day, time: found.time ?? other.match.time,
                                defaultTime: found.defaultTime ?? other.match.defaultTime)
            }
            if let (span, match) = recurrence, let weekday = match.weekday, due?.day == nil, due?.moment == nil {
                // "every monday [9am]": the first occurrence is the coming Monday; today only
                // while its time is still ahead (on a Monday at noon, "every monday 9am" starts
                // next week, not overdue).
                var day = grammar.nextWeekday(weekday)
                if let first = day, let time = due?.time, let moment = grammar.date(at: time, on: first), moment <= grammar.now {
                    day = grammar.calendar.date(byAdding: .day, value: 7, to: first)
                }
                due = DateMatch(day: day, time: due?.time)
                dueRange = dueRange ?? Self.range(of: span, in: tokens)
            }
            entry.due = due.flatMap(grammar.resolve)
            if let dueRange, let resolved = entry.due {
                let summary = resolved.summary(relativeTo: grammar.now, calendar: grammar.calendar)
                for range in [dueRange, otherRange].compactMap({ $0 }) { note(.due, range, summary) }
                farAhead = ImpossibleDates.farAheadNote(typed: String(line[dueRange]), due: resolved, now: grammar.now, calendar: grammar.calendar)
            }
        }

        if let notesRange {
            let text = line[notesRange].dropFirst(2).trimmingCharacters(in: .whitespaces)
            if !text.isEmpty {
                entry.notes = text
                note(.notes, notesRange, text)
            }
        }

        entry.title = zip(tokens, roles).compactMap { token, role in
            switch role {
            case .text, .literal: token.text.isEmpty ? nil : token.text
            default: nil
            }
        }.joined(separator: " ")
        // Without Foundation's NSString bridge unless an end needs trimming: its first use in
        // a process cost a `slate add` 770,000 instructions (4% of it).
        entry.title = TaskRules.trimmedWhitespace(entry.title)
        guard !entry.title.isEmpty else { throw QuickEntryError.blankTitle }
        entry.warnings = ImpossibleDates.notes(in: entry.title) + [repeatNote, farAhead].compactMap { $0 }
        entry.understood = parts.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element.part)
        return entry
    }

    // MARK: Tokens

    private enum Role {
        case text, literal, priority(Priority), flag, list(String), tag(String), alert(TaskAlert), due(DueDate)
        /// Part of the recurrence or due date expression.
        case taken

        /// Plain or quoted title text.
        var isTitleText: Bool {
            switch self {
            case .text, .literal: true
            default: false
            }
        }
    }

    private func role(of token: QuickEntryToken) throws -> Role {
        switch token.kind {
        case .literal: return .literal
        case .quotedList: return .list(token.text)
        case .word: break
        }
        let word = token.text
        if let due = try DueToken.due(in: word, grammar: grammar) { return .due(due) }
        guard let sigil = word.first, word.count > 1 else { return .text }
        let body = String(word.dropFirst())
        switch sigil {
        case "!":
            if body.lowercased() == "flag" { return .flag }
            if word.allSatisfy({ $0 == "!" }) {
                return Priority(name: word).map(Role.priority) ?? .text
            }
            guard body.allSatisfy({ $0.isLetter || $0.isNumber }) else { return .text }
            guard let priority = Priority(name: body) else { throw QuickEntryError.unknownPriority(word) }
            return .priority(priority)
        case "#":
            return Self.isName(body) ? .list(body) : .text
        case "@":
            return Self.isName(body) ? .tag(body.lowercased()) : .text
        case "^":
            guard body.first.map({ $0.isLetter || $0.isNumber || $0 == "@" }) == true else { return .text }
            guard let alert = try? TaskAlert(parsing: body) else { throw QuickEntryError.unknownAlert(word) }
            return .alert(alert)
        default:
            return .text
        }
    }

    /// Letters, digits, "-" and "_", with at least one letter.
    private static func isName(_ text: String) -> Bool {
        text.contains(where: \.isLetter) && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    /// Maximal runs of consecutive plain words, as token index ranges.
    private func runs(_ roles: [Role]) -> [Range<Int>] {
        var runs: [Range<Int>] = [], start: Int?
        for index in 0...roles.count {
            let isText = index < roles.count && { if case .text = roles[index] { true } else { false } }()
            if isText, start == nil { start = index }
            if !isText, let first = start {
                runs.append(first..<index)
                start = nil
            }
        }
        return runs
    }

    /// The span's words in lower case, the last without a comma or semicolon after it:
    /// "Dentist tomorrow, bring forms" ends its date with the comma, which goes with it.
    private func words(_ tokens: [QuickEntryToken], _ span: Range<Int>) -> ArraySlice<String> {
        var words = tokens[span].map { $0.text.lowercased() }
        if let last = words.last { words[words.count - 1] = Self.withoutClosingComma(last) }
        return words[...]
    }

    private static func withoutClosingComma(_ word: String) -> String {
        word.count > 1 && (word.hasSuffix(",") || word.hasSuffix(";")) ? String(word.dropLast()) : word
    }

    /// The plain title word at `index` in lower case, without a closing comma; nil past the
    /// end or for a token read as something else.
    private static func plainWord(at index: Int, _ tokens: [QuickEntryToken], _ roles: [Role]) -> String? {
        guard index < tokens.count, case .text = roles[index] else { return nil }
        return withoutClosingComma(tokens[index].text.lowercased())
    }

    // MARK: Finding expressions

    /// The first "every …" phrase in the line, longest form first. Throws for "every 0 days"
    /// and its kind, which no recurrence takes.
    private func findRecurrence(_ tokens: [QuickEntryToken], _ roles: [Role], in line: String) throws -> (Range<Int>, RecurrenceMatch)? {
        for run in runs(roles) {
            for start in run where tokens[start].text.lowercased() == "every" {
                for length in stride(from: min(RecurrenceGrammar.maximumWords, run.upperBound - start), to: 1, by: -1) {
                    let span = start..<(start + length)
                    if let match = RecurrenceGrammar.match(words(tokens, span), allowsSingleWords: false) {
                        return (span, match)
                    }
                    if RecurrenceGrammar.isIntervalOutOfRange(words(tokens, span)) {
                        throw QuickEntryError.repeatOutOfRange(String(line[Self.range(of: span, in: tokens)]))
                    }
                }
            }
        }
        return nil
    }

    /// "on the 2nd" followed by title text ("Meeting on the 2nd floor", "Review on the 3rd
    /// quarter report"): an ordinal that describes the next word, not a day of the month.
    /// "Pay rent on the 1st", "… on the 1st #Home" and "on the 31st 9am" are dates.
    private func isOrdinalBeforeTitleText(_ span: Range<Int>, _ tokens: [QuickEntryToken], _ roles: [Role]) -> Bool {
        let words = words(tokens, span)
        return words.count >= 2 && words[words.endIndex - 2] == "the" && DateGrammar.ordinalDay(words.last!) != nil
            && Self.plainWord(at: span.upperBound, tokens, roles) != nil
    }

    /// The end of "and thu", ", wed and fri" or "thu" typed right after "every mon": more
    /// weekdays than a repeat has; nil when no weekday follows.
    private static func moreWeekdays(after span: Range<Int>, _ tokens: [QuickEntryToken], _ roles: [Role]) -> Int? {
        var index = span.upperBound, end: Int?
        while let word = plainWord(at: index, tokens, roles) {
            if DateGrammar.weekdays[word] != nil {
                end = index + 1
            } else if !["and", "&", "or", ","].contains(word) {
                break
            }
            index += 1
        }
        return end
    }

    /// The end of "on the 1st and 15th" typed right after "every month": two days of the
    /// month or more, which a repeat does not have; nil for one day or none.
    private static func moreDaysOfMonth(after span: Range<Int>, _ tokens: [QuickEntryToken], _ roles: [Role]) -> Int? {
        var index = span.upperBound
        if plainWord(at: index, tokens, roles) == "on" { index += 1 }
        if plainWord(at: index, tokens, roles) == "the" { index += 1 }
        var days = 0, end: Int?
        while let word = plainWord(at: index, tokens, roles) {
            if DateGrammar.ordinalDay(word) != nil {
                days += 1
                end = index + 1
            } else if word != "and" && word != "&" {
                break
            }
            index += 1
        }
        return days >= 2 ? end : nil
    }

    /// "every weekday", "every morning", "every mon, thu": an "every" phrase no repeat takes,
    /// left in the title (quick entry says so rather than saving a task that does not repeat
    /// without a word).
    private static func unsupportedRepeat(_ tokens: [QuickEntryToken], _ roles: [Role]) -> Range<Int>? {
        for index in tokens.indices.dropLast() where plainWord(at: index, tokens, roles) == "every" {
            guard let next = plainWord(at: index + 1, tokens, roles) else { continue }
            if tokens[index + 1].text.hasSuffix(","), DateGrammar.weekdays[next] != nil {
                return index..<(moreWeekdays(after: index..<(index + 2), tokens, roles) ?? index + 2)
            }
            if unsupportedRepeatWords.contains(next) || ordinalWords.contains(next) || DateGrammar.ordinalDay(next) != nil {
                // "every other tuesday", "every 2nd monday", "every last friday": the word after
                // belongs to the phrase.
                let after = next == "weekday" || next == "weekdays" ? nil : plainWord(at: index + 2, tokens, roles)
                let takesNext = after.map { DateGrammar.weekdays[$0] != nil || ["day", "week", "month", "weekday", "weekend"].contains($0) } ?? false
                return index..<(index + (takesNext ? 3 : 2))
            }
        }
        return nil
    }

    private static let unsupportedRepeatWords: Set<String> = [
        "weekday", "weekdays", "workday", "workdays", "weekend", "weekends", "morning", "evening", "night",
        "hour", "hours", "minute", "minutes", "quarter", "other",
    ]

    /// "every first monday", "every last friday": a week of the month, which no repeat has.
    private static let ordinalWords: Set<String> = ["first", "second", "third", "fourth", "fifth", "last"]

    private static func unsupportedRepeatNote(_ typed: String) -> String {
        "“\(typed)” is not a repeat Slate has, so it stays in the title: a task repeats every day, week, month or year (every 2 weeks, every monday, every month on the 1st)."
    }

    /// The longest date expression among plain words that `accepting` takes; the last of
    /// equally long ones.
    private func findDate(_ tokens: [QuickEntryToken], _ roles: [Role],
                          accepting: (DateMatch) -> Bool = { _ in true }) -> (span: Range<Int>, match: DateMatch)? {
        var best: (span: Range<Int>, match: DateMatch)?
        for run in runs(roles) {
            for start in run {
                for length in 1...min(DateGrammar.maximumWords, run.upperBound - start) {
                    let span = start..<(start + length)
                    guard let match = grammar.expression(words(tokens, span)), accepting(match), grammar.resolve(match) != nil,
                        length >= best?.span.count ?? 0,
                        !isAmbiguousWord(span, tokens, roles), !isOrdinalBeforeTitleText(span, tokens, roles)
                    else { continue }
                    best = (span, match)
                }
            }
        }
        return best
    }

    /// The date's span widened to the connecting words typed right before it ("for", "on", "by",
    /// "due": "Pay rent for tomorrow", "Report due by fri"), so they leave the title with the date.
    /// Only when no title text follows the date ("Prepare for monday meeting" keeps its "for")
    /// and some title text stays before the words ("For tomorrow" keeps "For" as its title).
    private func withConnectingWords(_ span: Range<Int>, _ tokens: [QuickEntryToken], _ roles: [Role]) -> Range<Int> {
        guard !roles[span.upperBound...].contains(where: \.isTitleText) else { return span }
        var start = span.lowerBound
        while start > 0, span.lowerBound - start < 2, case .text = roles[start - 1],
            Self.connectingWords.contains(tokens[start - 1].text.lowercased())
        {
            start -= 1
        }
        let titleBefore = zip(tokens[..<start], roles[..<start]).contains { $1.isTitleText && !$0.text.isEmpty }
        return titleBefore ? start..<span.upperBound : span
    }

    /// "at" is not here: the grammar takes it before a time ("at 5pm"), and "at" before a day is
    /// not how the day is said ("Look at tomorrow" would lose its verb's object).
    private static let connectingWords: Set<String> = ["for", "on", "by", "due"]

    /// A lone "sun", "sat", "wed" or "tod" with title text after it is read as a word.
    private func isAmbiguousWord(_ span: Range<Int>, _ tokens: [QuickEntryToken], _ roles: [Role]) -> Bool {
        guard span.count == 1, Self.ambiguousWords.contains(Self.withoutClosingComma(tokens[span.lowerBound].text.lowercased())) else { return false }
        return roles[span.upperBound...].contains(where: \.isTitleText)
    }

    /// The line range from the first to the last token of `span`.
    private static func range(of span: Range<Int>, in tokens: [QuickEntryToken]) -> Range<String.Index> {
        tokens[span.lowerBound].range.lowerBound..<tokens[span.upperBound - 1].range.upperBound
    }

    private static let ambiguousWords: Set<String> = ["sun", "sat", "wed", "tod"]

    private func part(
        _ kind: QuickEntry.Part.Kind, _ range: Range<String.Index>, _ description: String, in line: String
    ) -> QuickEntry.Part {
        let lower = line.utf16.distance(from: line.startIndex, to: range.lowerBound)
        let upper = line.utf16.distance(from: line.startIndex, to: range.upperBound)
        return QuickEntry.Part(kind: kind, text: String(line[range]), utf16Range: lower..<upper, description: description)
    }
}

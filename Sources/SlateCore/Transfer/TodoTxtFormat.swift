import Foundation

/// todo.txt (github.com/todotxt/todo.txt): one task per line.
///
/// ```text
/// (A) 2026-11-20 Write Act 2 outline +Story @writing due:2026-11-27 rec:1w
/// x 2026-11-29 2026-11-20 Record foley +Sound_Effects pri:D
/// ```
///
/// - Priorities: critical `(A)`, high `(B)`, medium `(C)`, low `(D)`, none without. As the
///   format says, a completed line has no `(A)` at its start: its priority is kept as
///   `pri:A`. Reading also takes `(A)` after the dates of a completed line, and reads
///   `(E)`–`(Z)` as low.
/// - The list is the first `+project`; spaces in list names are written `_`. On reading,
///   `+Big_Shoot` goes to a list named "Big_Shoot" if there is one, else "Big Shoot"
///   (created if needed), and `+Inbox` to the Inbox. Further `+projects` stay in the title;
///   writing puts the list's before them (`+Inbox` for a task in no list), so that a line
///   reads back into its list.
/// - Tags are `@contexts`. `due:YYYY-MM-DD` is the due day: a due time is not kept (an
///   imported task is due all day). `rec:2w` repeats (`d`, `w`, `m`, `y`; `rec:+2w` is read too).
/// - Dates are days in the Slate's calendar: the creation time and the completion time
///   are not kept (they read as the start of the day).
/// - Not carried: ids and numbers (every imported line is a new task), notes, flags,
///   subtasks, manual order, reminders. Words of a title that look like `+project`,
///   `@context`, `due:`, `rec:` or `pri:` are read as those.
enum TodoTxtFormat {
    private static let letters: [Priority: Character] = [.critical: "A", .high: "B", .medium: "C", .low: "D"]

    // MARK: Export

    static func encode(_ snapshot: ExportSnapshot) -> Data {
        let calendar = snapshot.calendar
        let names = snapshot.listNames
        var text = ""
        for task in snapshot.tasks {
            var words: [String] = []
            let letter = letters[task.priority]
            if task.isCompleted {
                words.append("x")
                words.append(Timestamp.formatDay(task.completedAt ?? task.modified, calendar: calendar))
            } else if let letter {
                words.append("(\(letter))")
            }
            words.append(Timestamp.formatDay(task.created, calendar: calendar))
            var title = task.title.split(whereSeparator: \.isWhitespace).map(String.init)
            // The list is the line's first +project: before any the title has, so that the
            // line reads back into the same list (an Inbox task's title project too).
            let list = task.listID.flatMap { names[$0] }.map { "+" + projectName($0) }
            if let first = title.firstIndex(where: isProject) {
                title.insert(list ?? "+Inbox", at: first)
            } else if let list {
                title.append(list)
            }
            words += title
            words += task.tags.map { "@" + $0 }
            if let due = task.due(in: calendar) { words.append("due:" + Timestamp.formatDay(due, calendar: calendar)) }
            if let recurrence = task.recurrence { words.append("rec:\(recurrence.interval)\(recurrence.frequency.rawValue.prefix(1))") }
            if task.isCompleted, let letter { words.append("pri:\(letter)") }
            text += words.joined(separator: " ") + "\n"
        }
        return Data(text.utf8)
    }

    /// `+word`: what reading takes for a project.
    private static func isProject(_ word: String) -> Bool { word.count > 1 && word.hasPrefix("+") }

    /// A list name as one word: white space becomes `_`.
    static func projectName(_ name: String) -> String {
        name.split(whereSeparator: \.isWhitespace).joined(separator: "_")
    }

    // MARK: Import

    static func decode(_ data: Data, calendar: Calendar) throws -> ImportBatch {
        var batch = ImportBatch()
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            guard let text = String(validating: line, as: UTF8.self) else {
                throw ImportError(.line(index + 1), field: nil, "The line is not valid UTF-8 text.")
            }
            if text.allSatisfy(\.isWhitespace) { continue }
            batch.tasks.append(try task(text, at: .line(index + 1), calendar: calendar))
        }
        return batch
    }

    private static func task(_ text: String, at: ImportError.Location, calendar: Calendar) throws -> IncomingTask {
        var words = self.words(text)[...]
        var isCompleted = false
        var completedAt: Date?
        var created: Date?
        var priority: Priority?

        func day(_ word: String, _ what: String) throws -> Date? {
            // Cheaper than a regex, and this runs for every line.
            let shape = Array(word.utf8)
            guard shape.count == 10, shape[4] == UInt8(ascii: "-"), shape[7] == UInt8(ascii: "-"),
                  shape.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) })
            else { return nil }
            guard let date = Timestamp.parseDay(word, calendar: calendar) else {
                throw ImportError(at, field: what, "the \(what) has an invalid date '\(word)'")
            }
            return date
        }
        func letterPriority(_ word: String) -> Priority? {
            let scalars = Array(word.unicodeScalars)
            guard scalars.count == 3, scalars[0] == "(", scalars[2] == ")", ("A"..."Z").contains(scalars[1]) else { return nil }
            return self.priority(Character(scalars[1]))
        }

        if words.first == "x" {
            isCompleted = true
            words.removeFirst()
            if let first = words.first, let date = try day(first, "completion date") {
                completedAt = date
                words.removeFirst()
                if let second = words.first, let date = try day(second, "creation date") {
                    created = date
                    words.removeFirst()
                }
            }
            if let first = words.first, let found = letterPriority(first) {
                priority = found
                words.removeFirst()
            }
        } else {
            if let first = words.first, let found = letterPriority(first) {
                priority = found
                words.removeFirst()
            }
            if let first = words.first, let date = try day(first, "creation date") {
                created = date
                words.removeFirst()
            }
        }

        var titleWords: [String] = []
        var project: String?
        var tags: [String] = []
        var due: Date?
        var recurrence: Recurrence?
        for word in words {
            // The first byte is looked at before anything that counts or copies: most words
            // are plain words of the title.
            let first = word.utf8.first
            if first == UInt8(ascii: "+"), word.count > 1, word.hasPrefix("+"), project == nil {
                project = String(word.dropFirst())
            } else if first == UInt8(ascii: "@"), word.count > 1, word.hasPrefix("@") {
                tags.append(String(word.dropFirst()))
            } else if let value = self.value(of: "due", in: word) {
                guard let date = Timestamp.parseDay(value, calendar: calendar) else {
                    throw ImportError(at, field: "due", "due has an invalid date '\(value)'")
                }
                due = date
            } else if let value = self.value(of: "rec", in: word) {
                recurrence = try self.recurrence(value, at: at)
            } else if let value = self.value(of: "pri", in: word) {
                guard value.count == 1, let letter = value.uppercased().first, let found = self.priority(letter) else {
                    throw ImportError(at, field: "pri", "pri must be a letter from A to Z; got '\(value)'")
                }
                priority = found
            } else {
                titleWords.append(word)
            }
        }

        var task = IncomingTask(location: at, title: try ImportRules.title(titleWords.joined(separator: " "), at: at, field: "title"))
        task.isCompleted = isCompleted
        task.completedAt = completedAt
        task.created = created
        task.priority = priority ?? .none
        task.tags = try ImportRules.tags(tags, at: at, field: "@context")
        task.due = due
        task.isAllDay = due != nil
        task.recurrence = recurrence
        task.listField = "+project"
        if let project { task.list = .project(project) }
        return task
    }

    /// `value` of a `key:value` word.
    private static func value(of key: String, in word: String) -> String? {
        // A word that does not start with the key's letter (either case) is none of it,
        // known without lower-casing a copy of every word three times.
        guard let first = word.utf8.first, first | 0x20 == key.utf8.first else { return nil }
        guard word.count > key.count + 1, word.lowercased().hasPrefix(key + ":") else { return nil }
        return String(word.dropFirst(key.count + 1))
    }

    /// The line's words, split at white space (`Character.isWhitespace`). An ASCII line is
    /// split byte by byte (its white space is tab, the line breaks and space); any other
    /// goes through `Character`, whose grapheme breaking cost 9k instructions per line.
    private static func words(_ text: String) -> [String] {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return text.split(whereSeparator: \.isWhitespace).map(String.init) }
        return utf8.split(whereSeparator: { $0 == 0x20 || (0x09...0x0D).contains($0) }).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func priority(_ letter: Character) -> Priority? {
        switch letter {
        case "A": .critical
        case "B": .high
        case "C": .medium
        case "D"..."Z": .low
        default: nil
        }
    }

    /// `1w`, `+2d`, `m` (1 implied).
    private static func recurrence(_ value: String, at: ImportError.Location) throws -> Recurrence {
        guard let match = value.wholeMatch(of: #/\+?(\d*)([dwmyDWMY])/#) else {
            throw ImportError(at, field: "rec", "rec must be a number and d, w, m or y, such as rec:2w; got '\(value)'")
        }
        let frequency: Recurrence.Frequency = switch match.2.lowercased() {
        case "d": .daily
        case "w": .weekly
        case "m": .monthly
        default: .yearly
        }
        guard let interval = match.1.isEmpty ? 1 : Int(match.1) else {
            throw ImportError(at, field: "rec", "rec has an invalid interval '\(value)'")
        }
        return try ImportRules.recurrence(Recurrence(frequency, interval: interval), at: at, field: "rec")!
    }
}

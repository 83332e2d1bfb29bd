import Foundation

/// Taskwarrior's JSON (`task export` / `task import`): an array of task objects with dates
/// like `20261129T091500Z`.
///
/// ```json
/// [
///   {"uuid":"…","description":"Write Act 2 outline","status":"pending","entry":"20261129T091500Z",
///    "modified":"20261129T091500Z","due":"20261126T230000Z","priority":"H","project":"Story",
///    "tags":["writing"],"recur":"2weeks","annotations":[{"entry":"…","description":"the notes"}],
///    "slatepriority":"critical"}
/// ]
/// ```
///
/// - status `pending` / `completed` (with `end`); priorities H (critical, high), M, L.
/// - The list is the `project`; tags are `tags`; the notes are one annotation.
/// - `recur` is `daily`, `weekly`, `monthly`, `yearly`, or `2days`, `3weeks`, `2months`, `2years`.
/// - An all-day due date is the start of its day (Taskwarrior has no all-day dates); on
///   reading, a due date at the start of a day in the Slate's calendar is all-day.
/// - What Taskwarrior has no attribute for is written as attributes it keeps as they are
///   (orphaned UDAs, as text): `slatepriority` (critical), `slateflagged`, `slateparent`,
///   `slateorder`, `slatereminder`.
/// - Not carried: task numbers, list colours and icons, anything below the second.
///
/// Reading takes an array, or one object per line (older exports). Deleted tasks are
/// skipped, `waiting` reads as pending, several annotations become lines of the notes;
/// `depends`, `wait`, `scheduled` and `until` are ignored.
///
/// Recurrence: `task import` turns a pending task with `recur` into a template (status
/// `recurring`, same uuid) and generates instances (new uuids, `parent` = the template).
/// A Slate repeating task is one task whose due date moves on, so a template reads as that
/// task (its uuid kept, due on its earliest pending instance); the pending instances of a
/// template in the file are skipped, and its completed instances read as completed tasks
/// that do not repeat (as Slate leaves them).
enum TaskwarriorFormat {
    // MARK: Export

    static func encode(_ snapshot: ExportSnapshot) -> Data {
        let names = snapshot.listNames
        let tasks: [JSONValue] = snapshot.tasks.map { task in
            var members: [(key: String, value: JSONValue)] = [
                ("uuid", .string(task.id.uuidString.lowercased())), ("description", .string(task.title)),
                ("status", .string(task.isCompleted ? "completed" : "pending")),
                ("entry", .string(BasicDate.formatUTC(task.created))), ("modified", .string(BasicDate.formatUTC(task.modified))),
            ]
            if task.isCompleted { members.append(("end", .string(BasicDate.formatUTC(task.completedAt ?? task.modified)))) }
            if let due = task.due(in: snapshot.calendar) { members.append(("due", .string(BasicDate.formatUTC(due)))) }
            if let letter = letter(task.priority) { members.append(("priority", .string(letter))) }
            if let name = task.listID.flatMap({ names[$0] }) { members.append(("project", .string(name))) }
            if !task.tags.isEmpty { members.append(("tags", .array(task.tags.map(JSONValue.string)))) }
            if let recurrence = task.recurrence { members.append(("recur", .string(recur(recurrence)))) }
            if !task.notes.isEmpty {
                members.append(("annotations", .array([.object(JSONObject([
                    ("entry", .string(BasicDate.formatUTC(task.created))), ("description", .string(task.notes)),
                ]))])))
            }
            if task.priority == .critical { members.append(("slatepriority", "critical")) }
            if task.isFlagged { members.append(("slateflagged", "yes")) }
            if let parentID = task.parentID { members.append(("slateparent", .string(parentID.uuidString.lowercased()))) }
            members.append(("slateorder", .string(JSONValue.numberText(task.order))))
            if !task.alerts.isEmpty { members.append(("slatealerts", .string(task.alerts.map(\.text).joined(separator: ",")))) }
            return .object(JSONObject(members))
        }
        return JSONValue.array(tasks).document()
    }

    private static func letter(_ priority: Priority) -> String? {
        switch priority {
        case .none: nil
        case .low: "L"
        case .medium: "M"
        case .high, .critical: "H"
        }
    }

    private static func recur(_ recurrence: Recurrence) -> String {
        recurrence.interval == 1
            ? recurrence.frequency.rawValue
            : "\(recurrence.interval)\(recurrence.frequency.unit)s"
    }

    // MARK: Import

    static func decode(_ data: Data, calendar: Calendar) throws -> ImportBatch {
        var records: [(JSONValue, ImportError.Location)] = []
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let start = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if start == UInt8(ascii: "{") {
            // One object per line, as Taskwarrior before 2.4 wrote them.
            for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                var trimmed = line.drop { [0x20, 0x09, 0x0D].contains($0) }
                while let last = trimmed.last, [0x20, 0x09, 0x0D, UInt8(ascii: ",")].contains(last) { trimmed = trimmed.dropLast() }
                guard !trimmed.isEmpty else { continue }
                do {
                    records.append((try JSONValue.parse(Data(trimmed)), .line(index + 1)))
                } catch let error as ImportError {
                    throw ImportError(.line(index + 1), field: nil, error.message)
                }
            }
        } else {
            guard case .array(let elements) = try JSONValue.parse(Data(bytes)) else {
                throw ImportError(.file, field: nil, "A Taskwarrior export must be a JSON array of tasks.")
            }
            records = elements.enumerated().map { ($1, .record(kind: "task", index: $0 + 1)) }
        }
        // Recurring templates in the file, with the due date of their earliest pending instance.
        var templates: [String: Date?] = [:]
        for case (.object(let object), _) in records where object["status"] == "recurring" {
            if case .string(let uuid)? = object["uuid"] { templates[uuid.lowercased()] = .some(nil) }
        }
        for case (.object(let object), let location) in records {
            guard case .string(let parent)? = object["parent"], templates[parent.lowercased()] != nil,
                  object["status"] == "pending" || object["status"] == "waiting",
                  let due = try? date(JSONRecord(object: object, location: location), "due") else { continue }
            if let earliest = templates[parent.lowercased()] ?? nil, earliest <= due { continue }
            templates[parent.lowercased()] = due
        }
        var batch = ImportBatch()
        for (value, location) in records {
            if let task = try task(value, at: location, templates: templates, calendar: calendar) { batch.tasks.append(task) }
        }
        return batch
    }

    private static func task(_ value: JSONValue, at location: ImportError.Location, templates: [String: Date?],
                             calendar: Calendar) throws -> IncomingTask? {
        guard case .object(let object) = value else {
            throw ImportError(location, field: nil, "a task must be a JSON object; got \(value.excerpt())")
        }
        let record = JSONRecord(object: object, location: location)
        let status = try record.string("status")?.lowercased() ?? "pending"
        // An instance of a template in the file (Taskwarrior's `parent` is not a parent task).
        var isInstance = false
        if case .string(let parent)? = object["parent"] { isInstance = templates[parent.lowercased()] != nil }
        switch status {
        case "deleted": return nil
        case "pending", "waiting": if isInstance { return nil }
        case "completed", "recurring": break
        default: throw record.error("status", "must be pending, waiting, completed, deleted or recurring; got '\(status)'")
        }
        var task = IncomingTask(location: location, title: try ImportRules.title(try record.requiredString("description"), at: location, field: "description"))
        task.idField = "uuid"
        task.listField = "project"
        task.parentField = "slateparent"
        task.id = try record.uuid("uuid")
        task.isCompleted = status == "completed"
        task.created = try date(record, "entry")
        task.modified = try date(record, "modified")
        if task.isCompleted { task.completedAt = try date(record, "end") ?? task.modified }
        let nextDue = try record.string("uuid").flatMap { templates[$0.lowercased()] ?? nil }
        if let due = try nextDue ?? date(record, "due") {
            task.due = due
            task.isAllDay = calendar.startOfDay(for: due) == due
        }
        switch try record.string("priority")?.uppercased() {
        case nil, "": task.priority = .none
        case "H": task.priority = .high
        case "M": task.priority = .medium
        case "L": task.priority = .low
        case let other?: throw record.error("priority", "must be H, M or L; got '\(other)'")
        }
        if let name = try record.string("slatepriority") {
            guard let priority = Priority(name: name) else {
                throw record.error("slatepriority", "must be one of \(Priority.acceptedForms); got '\(name)'")
            }
            task.priority = priority
        }
        if let project = try record.string("project"), !project.isEmpty { task.list = .name(project) }
        // Old exports wrote tags as one comma-separated string.
        var tags: [String] = []
        if case .string(let text)? = object["tags"] { tags = text.split(separator: ",").map(String.init) } else { tags = try record.strings("tags") ?? [] }
        task.tags = try ImportRules.tags(tags, at: location, field: "tags")
        if let text = try record.string("recur"), !(isInstance && task.isCompleted) { task.recurrence = try recurrence(text, record) }
        if let annotations = try record.array("annotations") {
            let notes = try annotations.map { annotation in
                guard case .object(let object) = annotation, case .string(let text)? = object["description"] else {
                    throw record.error("annotations", "must be objects with a description; got \(annotation.excerpt())")
                }
                return text
            }
            task.notes = try ImportRules.notes(notes.joined(separator: "\n"), at: location, field: "annotations")
        }
        if let flag = try record.string("slateflagged") {
            switch flag.lowercased() {
            case "yes", "true", "1": task.isFlagged = true
            case "no", "false", "0", "": task.isFlagged = false
            default: throw record.error("slateflagged", "must be yes or no; got '\(flag)'")
            }
        }
        task.parentID = try record.uuid("slateparent")
        task.order = try record.double("slateorder").map { try ImportRules.order($0, at: location, field: "slateorder") }
        // An export from before alerts: its reminder becomes one (unless it has alerts).
        if let offset = try record.int("slatereminder"), let due = task.due {
            task.alerts = TaskAlert(legacyReminderOffset: offset, due: due).map { [$0] } ?? []
        }
        if let text = try record.string("slatealerts") {
            do {
                let texts = text.split(separator: ",").map(String.init)
                task.alerts = try TaskAlert.validated(try TaskAlert.parseList(texts, field: "slatealerts"), hasDue: task.due != nil,
                                                      field: "slatealerts")
            } catch let error as SlateError {
                throw record.error("slatealerts", error.description)
            }
        }
        return task
    }

    private static let utc = BasicDate.calendar(in: TimeZone(identifier: "UTC")!)

    /// `20261129T091500Z`; also ISO 8601 (`2026-11-29T09:15:00Z`) and epoch seconds, which
    /// other tools and old versions write.
    private static func date(_ record: JSONRecord, _ key: String) throws -> Date? {
        guard let text = try record.string(key) else { return nil }
        if let date = BasicDate.parseMoment(text, local: utc) ?? Timestamp.parse(text) { return date }
        if text.count <= 11, text.allSatisfy(\.isASCII), let seconds = Int(text) { return Date(timeIntervalSince1970: Double(seconds)) }
        throw record.error(key, "has an invalid date '\(text)'")
    }

    /// Taskwarrior's recurrence periods: `weekly`, `2weeks`, `3d`, `biweekly`, `quarterly`, `P2W`…
    private static func recurrence(_ text: String, _ record: JSONRecord) throws -> Recurrence {
        let lowered = text.lowercased().replacingOccurrences(of: " ", with: "")
        let units: [String: (Recurrence.Frequency, Int)] = [
            "d": (.daily, 1), "day": (.daily, 1), "days": (.daily, 1), "daily": (.daily, 1),
            "w": (.weekly, 1), "wk": (.weekly, 1), "wks": (.weekly, 1), "week": (.weekly, 1), "weeks": (.weekly, 1),
            "weekly": (.weekly, 1), "biweekly": (.weekly, 2), "fortnight": (.weekly, 2), "sennight": (.weekly, 1),
            "m": (.monthly, 1), "mo": (.monthly, 1), "mos": (.monthly, 1), "mth": (.monthly, 1), "mths": (.monthly, 1),
            "month": (.monthly, 1), "months": (.monthly, 1), "monthly": (.monthly, 1), "bimonthly": (.monthly, 2),
            "q": (.monthly, 3), "qtr": (.monthly, 3), "qtrs": (.monthly, 3), "quarter": (.monthly, 3),
            "quarters": (.monthly, 3), "quarterly": (.monthly, 3), "semiannual": (.monthly, 6),
            "y": (.yearly, 1), "yr": (.yearly, 1), "yrs": (.yearly, 1), "year": (.yearly, 1), "years": (.yearly, 1),
            "yearly": (.yearly, 1), "annual": (.yearly, 1), "annually": (.yearly, 1), "biannual": (.yearly, 2),
            "biyearly": (.yearly, 2),
        ]
        var count = 1
        var unit = lowered
        if let match = lowered.wholeMatch(of: #/p(\d+)([dwmy])/#) {
            count = Int(match.1) ?? 0
            unit = String(match.2)
        } else if let match = lowered.wholeMatch(of: #/(\d+)([a-z]+)/#) {
            count = Int(match.1) ?? 0
            unit = String(match.2)
        }
        guard let (frequency, multiple) = units[unit], count >= 1 else {
            throw record.error("recur", "has no Slate form: '\(text)'; Slate repeats every n days, weeks, months or years")
        }
        // A count too large to multiply is out of range anyway: the rules refuse it by its own number.
        let (interval, overflow) = count.multipliedReportingOverflow(by: multiple)
        return try ImportRules.recurrence(Recurrence(frequency, interval: overflow ? count : interval), at: record.location, field: "recur")!
    }
}

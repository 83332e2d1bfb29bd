import Foundation

/// iCalendar (RFC 5545): one VCALENDAR holding one VTODO per task, as CalDAV clients
/// (Apple Reminders, Thunderbird, Tasks.org) write them.
///
/// What a VTODO carries and how:
/// - `UID` (the task id), `SUMMARY`, `DESCRIPTION`, `CREATED`, `LAST-MODIFIED` (UTC, to the second).
/// - `DUE;VALUE=DATE:20261201` plus `DTSTART;VALUE=DATE` on the same day for an all-day date
///   (as Apple does); `DUE:20261201T080000Z` in UTC for a moment.
/// - `PRIORITY` 1 (critical, high), 5 (medium), 9 (low), none omitted; `X-SLATE-PRIORITY`
///   keeps Slate's own value, since critical and high are both 1.
/// - `STATUS:COMPLETED`, `COMPLETED:<UTC>` and `PERCENT-COMPLETE:100`, or `STATUS:NEEDS-ACTION`.
/// - `CATEGORIES` (tags), `RELATED-TO;RELTYPE=PARENT` (subtasks), `RRULE:FREQ=WEEKLY;INTERVAL=2`.
/// - `X-APPLE-SORT-ORDER` (the manual order, whole), with `X-SLATE-ORDER` when it has a fraction.
/// - `X-SLATE-FLAGGED:TRUE`, `X-SLATE-LIST:<list name>`.
/// - A `VALARM` with `TRIGGER;RELATED=END:-PT15M` for a reminder (only when there is a due date).
///
/// Lists: the file is one calendar for the whole account (one file, one import in any
/// client); each list is declared at the top as `X-SLATE-LIST;X-SLATE-COLOR=…;X-SLATE-ICON=…;
/// X-SLATE-ORDER=…:<name>`, and each task names its list. Not carried: task numbers, list ids
/// and creation dates, and anything below the second.
///
/// Reading is lenient: CRLF or LF, folded or long lines, unknown properties and components
/// (VEVENT, VTIMEZONE) ignored, `VALUE=DATE`, `TZID=` (a Foundation time-zone identifier),
/// UTC and floating (local) times. A VTODO without X-SLATE-LIST goes to the list named by the
/// calendar's `X-WR-CALNAME`, if any. A UID that is not a UUID is mapped to a stable UUID
/// made from it, so re-importing a file updates its tasks. `STATUS:CANCELLED` reads as
/// completed; RRULE parts other than FREQ and INTERVAL are ignored; VTODOs with a
/// RECURRENCE-ID (overrides of one occurrence) are skipped.
enum ICalendarFormat {
    // MARK: Export

    static func encode(_ snapshot: ExportSnapshot) -> Data {
        let calendar = snapshot.calendar
        let names = snapshot.listNames
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Slate//Slate task manager//EN\r\nCALSCALE:GREGORIAN\r\n"
        for list in snapshot.lists {
            text += ICalendarText.line("X-SLATE-LIST", [("X-SLATE-COLOR", list.color), ("X-SLATE-ICON", list.icon),
                                                        ("X-SLATE-ORDER", JSONValue.numberText(list.order))],
                                       ICalendarText.escape(list.name))
        }
        let stamp = BasicDate.formatUTC(snapshot.exported)
        for task in snapshot.tasks {
            var lines: [String] = []
            func add(_ name: String, _ parameters: [(String, String)], _ value: String) {
                lines.append(ICalendarText.line(name, parameters, value))
            }
            add("UID", [], task.id.uuidString)
            add("DTSTAMP", [], stamp)
            add("CREATED", [], BasicDate.formatUTC(task.created))
            add("LAST-MODIFIED", [], BasicDate.formatUTC(task.modified))
            add("SUMMARY", [], ICalendarText.escape(task.title))
            if !task.notes.isEmpty { add("DESCRIPTION", [], ICalendarText.escape(task.notes)) }
            if let due = task.due(in: calendar) {
                if task.isAllDay {
                    let day = BasicDate.formatDay(due, calendar: calendar)
                    add("DTSTART", [("VALUE", "DATE")], day)
                    add("DUE", [("VALUE", "DATE")], day)
                } else {
                    add("DUE", [], BasicDate.formatUTC(due))
                }
            }
            if let value = priorityNumber(task.priority) {
                add("PRIORITY", [], String(value))
                add("X-SLATE-PRIORITY", [], task.priority.name)
            }
            if task.isCompleted {
                add("STATUS", [], "COMPLETED")
                if let completedAt = task.completedAt { add("COMPLETED", [], BasicDate.formatUTC(completedAt)) }
                add("PERCENT-COMPLETE", [], "100")
            } else {
                add("STATUS", [], "NEEDS-ACTION")
            }
            if !task.tags.isEmpty { add("CATEGORIES", [], task.tags.map(ICalendarText.escape).joined(separator: ",")) }
            if let parentID = task.parentID { add("RELATED-TO", [("RELTYPE", "PARENT")], parentID.uuidString) }
            if let rule = VTodoRendering.rule(task, calendar: calendar) { add("RRULE", [], rule) }
            if abs(task.order) < 1e15 { add("X-APPLE-SORT-ORDER", [], String(Int64(task.order.rounded()))) }
            if task.order != task.order.rounded() || abs(task.order) >= 1e15 { add("X-SLATE-ORDER", [], JSONValue.numberText(task.order)) }
            if task.isFlagged { add("X-SLATE-FLAGGED", [], "TRUE") }
            if let name = task.listID.flatMap({ names[$0] }) { add("X-SLATE-LIST", [], ICalendarText.escape(name)) }
            for alarm in ICalendarAlarms.components(for: task, calendar: calendar) {
                for (name, parameters, value) in alarm { add(name, parameters, value) }
            }
            text += "BEGIN:VTODO\r\n" + lines.joined() + "END:VTODO\r\n"
        }
        text += "END:VCALENDAR\r\n"
        return Data(text.utf8)
    }

    /// RFC 5545 priorities as Apple Reminders writes them.
    static func priorityNumber(_ priority: Priority) -> Int? {
        switch priority {
        case .none: nil
        case .low: 9
        case .medium: 5
        case .high, .critical: 1
        }
    }

    // MARK: Import

    static func decode(_ data: Data, calendar: Calendar) throws -> ImportBatch {
        var batch = ImportBatch()
        var declared: Set<String> = []
        let roots = try ICalendarText.parse(data)
        guard !roots.isEmpty else { throw ImportError(.file, field: nil, "The file holds no BEGIN:VCALENDAR … END:VCALENDAR.") }
        for root in roots {
            guard root.name == "VCALENDAR" else {
                throw ImportError(.line(root.line), field: nil, "BEGIN:\(root.name) must be inside BEGIN:VCALENDAR … END:VCALENDAR.")
            }
            for list in try lists(of: root) where declared.insert(list.name.lowercased()).inserted {
                batch.lists.append(list)
            }
            let defaultList = root.property("X-WR-CALNAME").map { ICalendarText.unescape($0.value) }
            for todo in root.components where todo.name == "VTODO" {
                if let task = try task(todo, defaultList: defaultList, calendar: calendar) { batch.tasks.append(task) }
            }
        }
        return batch
    }

    /// The lists a calendar declares: its X-SLATE-LIST lines, and the calendar itself when it has a name.
    private static func lists(of root: ICalendarComponent) throws -> [IncomingList] {
        var lists: [IncomingList] = []
        for property in root.properties("X-SLATE-LIST") {
            let at = ImportError.Location.line(property.line)
            var list = IncomingList(location: at, name: try ImportRules.listName(ICalendarText.unescape(property.value), at: at, field: property.name, declared: true))
            list.color = try property.parameter("X-SLATE-COLOR").map { try ImportRules.color($0, at: at, field: "X-SLATE-COLOR") }
            list.icon = try property.parameter("X-SLATE-ICON").map { try ImportRules.icon($0, at: at, field: "X-SLATE-ICON") }
            if let text = property.parameter("X-SLATE-ORDER") {
                guard let order = Double(text), order.isFinite else {
                    throw ImportError(at, field: "X-SLATE-ORDER", "X-SLATE-ORDER must be a number; got '\(text)'")
                }
                list.order = order
            }
            lists.append(list)
        }
        if let property = root.property("X-WR-CALNAME") {
            let at = ImportError.Location.line(property.line)
            var list = IncomingList(location: at, name: try ImportRules.listName(ICalendarText.unescape(property.value), at: at, field: property.name, declared: true))
            // Apple writes #RRGGBBAA; a colour Slate cannot read is left to the default.
            list.color = root.property("X-APPLE-CALENDAR-COLOR").flatMap { try? TaskRules.validColor(String($0.value.prefix(7))) }
            if !lists.contains(where: { $0.name.lowercased() == list.name.lowercased() }) { lists.append(list) }
        }
        return lists
    }

    private static func task(_ todo: ICalendarComponent, defaultList: String?, calendar: Calendar) throws -> IncomingTask? {
        guard todo.property("RECURRENCE-ID") == nil else { return nil }
        let at = ImportError.Location.line(todo.line)
        func error(_ property: ICalendarProperty, _ message: String) -> ImportError {
            ImportError(.line(property.line), field: property.name, "\(property.name) \(message)")
        }
        let summary = todo.property("SUMMARY")
        let title = try ImportRules.title(summary.map { ICalendarText.unescape($0.value) } ?? "",
                                          at: summary.map { .line($0.line) } ?? at, field: "SUMMARY")
        var task = IncomingTask(location: at, title: title)
        task.idField = "UID"
        task.listField = "X-SLATE-LIST"
        task.parentField = "RELATED-TO"
        if let uid = todo.property("UID"), !uid.value.isEmpty { task.id = uuid(forUID: uid.value) }
        if let description = todo.property("DESCRIPTION") {
            task.notes = try ImportRules.notes(ICalendarText.unescape(description.value), at: .line(description.line), field: "DESCRIPTION")
        }
        task.created = try todo.property("CREATED").map { try moment($0, calendar: calendar) }
        task.modified = try todo.property("LAST-MODIFIED").map { try moment($0, calendar: calendar) }
        if let due = todo.property("DUE") {
            (task.due, task.isAllDay) = try date(due, calendar: calendar)
        }

        if let property = todo.property("PRIORITY") {
            guard let value = Int(property.value.trimmingCharacters(in: .whitespaces)), (0...9).contains(value) else {
                throw error(property, "must be a number from 0 to 9; got '\(property.value)'")
            }
            task.priority = switch value { case 1...4: .high; case 5: .medium; case 6...9: .low; default: .none }
        }
        if let property = todo.property("X-SLATE-PRIORITY") {
            guard let priority = Priority(name: property.value.trimmingCharacters(in: .whitespaces)) else {
                throw error(property, "must be one of \(Priority.acceptedForms); got '\(property.value)'")
            }
            task.priority = priority
        }

        let status = todo.property("STATUS")?.value.trimmingCharacters(in: .whitespaces).uppercased()
        let completed = try todo.property("COMPLETED").map { try moment($0, calendar: calendar) }
        let percent = todo.property("PERCENT-COMPLETE")?.value.trimmingCharacters(in: .whitespaces)
        task.isCompleted = status.map { $0 == "COMPLETED" || $0 == "CANCELLED" } ?? (completed != nil || percent == "100")
        if task.isCompleted { task.completedAt = completed ?? task.modified }

        let categories = todo.properties("CATEGORIES")
        task.tags = try ImportRules.tags(categories.flatMap { ICalendarText.unescapeList($0.value) },
                                         at: categories.first.map { .line($0.line) } ?? at, field: "CATEGORIES")
        if let related = todo.properties("RELATED-TO").first(where: { ($0.parameter("RELTYPE") ?? "PARENT").uppercased() == "PARENT" }),
           !related.value.isEmpty {
            task.parentID = uuid(forUID: related.value)
            task.parentLocation = .line(related.line)
        }
        if let rule = todo.property("RRULE") {
            let due = task.due.map { calendar.dateComponents([.month, .day], from: $0) }
            task.recurrence = try recurrence(rule).settled(dueOn: due.map { ($0.month ?? 1, $0.day ?? 1) })
        }
        if let property = todo.property("X-SLATE-ORDER") ?? todo.property("X-APPLE-SORT-ORDER") {
            guard let order = Double(property.value.trimmingCharacters(in: .whitespaces)), order.isFinite else {
                throw error(property, "must be a number; got '\(property.value)'")
            }
            task.order = order
        }
        if let property = todo.property("X-SLATE-FLAGGED") {
            switch property.value.trimmingCharacters(in: .whitespaces).uppercased() {
            case "TRUE", "YES", "1": task.isFlagged = true
            case "FALSE", "NO", "0", "": task.isFlagged = false
            default: throw error(property, "must be TRUE or FALSE; got '\(property.value)'")
            }
        }
        if let property = todo.property("X-SLATE-LIST") {
            task.list = .name(ICalendarText.unescape(property.value))
            task.listLocation = .line(property.line)
        } else if let defaultList {
            task.list = .name(defaultList)
        }
        task.alerts = try ICalendarAlarms.alerts(in: todo, due: task.due) { try moment($0, calendar: calendar) }
        return task
    }

    // MARK: Values

    /// A DATE or DATE-TIME value: the day's start (all-day) or the moment.
    private static func date(_ property: ICalendarProperty, calendar: Calendar) throws -> (Date, Bool) {
        let value = property.value.trimmingCharacters(in: .whitespaces)
        if property.parameter("VALUE")?.uppercased() == "DATE" || (value.count == 8 && !value.contains("T")) {
            guard let day = BasicDate.parseDay(value, calendar: calendar) else {
                throw ImportError(.line(property.line), field: property.name, "\(property.name) has an invalid date '\(value)'")
            }
            return (day, true)
        }
        var local = calendar
        if let tzid = property.parameter("TZID"), !value.uppercased().hasSuffix("Z") {
            guard let zone = TimeZone(identifier: tzid.hasPrefix("/") ? String(tzid.dropFirst()) : tzid) else {
                throw ImportError(.line(property.line), field: property.name, "\(property.name) has an unknown time zone '\(tzid)'")
            }
            local = BasicDate.calendar(in: zone)
        }
        guard let moment = BasicDate.parseMoment(value, local: local) else {
            throw ImportError(.line(property.line), field: property.name, "\(property.name) has an invalid date '\(value)'")
        }
        return (moment, false)
    }

    /// A DATE-TIME (a DATE reads as the start of its day).
    private static func moment(_ property: ICalendarProperty, calendar: Calendar) throws -> Date {
        try date(property, calendar: calendar).0
    }

    /// `FREQ=WEEKLY;INTERVAL=2`, with the day of the month of a BYMONTHDAY Slate has a form
    /// for (`Recurrence+RRULE.swift`); other parts (BYDAY, COUNT, UNTIL…) have no Slate form
    /// and are ignored.
    private static func recurrence(_ property: ICalendarProperty) throws -> Recurrence {
        let parts = Recurrence.rruleParts(property.value)
        let at = ImportError.Location.line(property.line)
        guard let name = parts["FREQ"] else { throw ImportError(at, field: "RRULE", "RRULE has no FREQ; got '\(property.value)'") }
        guard let frequency = Recurrence.Frequency(rawValue: name.lowercased()) else {
            throw ImportError(at, field: "RRULE", "RRULE has the frequency '\(name)'; Slate repeats DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        var interval = 1
        if let text = parts["INTERVAL"] {
            guard let value = Int(text) else { throw ImportError(at, field: "RRULE", "RRULE has an invalid INTERVAL '\(text)'") }
            interval = value
        }
        let day = Recurrence.dayOfMonth(inRule: parts, frequency: frequency)
        return try ImportRules.recurrence(Recurrence(frequency, interval: interval, dayOfMonth: day), at: at, field: "RRULE")!
    }

    /// The task id for a UID: the UUID it is, or a stable UUID made from any other text
    /// (two 64-bit FNV-1a hashes, marked as a version 8 UUID).
    static func uuid(forUID uid: String) -> UUID {
        let text = uid.trimmingCharacters(in: .whitespaces)
        if let id = UUID(uuidString: text) { return id }
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100000001b3
            }
            return hash
        }
        var bytes = withUnsafeBytes(of: fnv(0xcbf29ce484222325).bigEndian, Array.init)
            + withUnsafeBytes(of: fnv(0x84222325cbf29ce4).bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

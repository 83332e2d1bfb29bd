import Foundation

/// Writes a task as a calendar object: afresh for a task no client stored, or as the
/// client's stored bytes with only the property lines of changed fields rewritten.
enum VTodoRendering {
    /// A group of properties that carries one task field.
    enum Field: CaseIterable {
        case title, notes, priority, due, completion, tags, parent, recurrence, order, flag

        /// The properties of the VTODO this field owns (rewritten together).
        var propertyNames: Set<String> {
            switch self {
            case .title: ["SUMMARY"]
            case .notes: ["DESCRIPTION"]
            case .priority: ["PRIORITY", "X-SLATE-PRIORITY"]
            case .due: ["DUE", "DTSTART"]
            case .completion: ["STATUS", "COMPLETED", "PERCENT-COMPLETE"]
            case .tags: ["CATEGORIES"]
            case .parent: ["RELATED-TO"]
            case .recurrence: ["RRULE"]
            case .order: ["X-APPLE-SORT-ORDER"]
            case .flag: ["X-SLATE-FLAGGED"]
            }
        }

        /// True when `task` differs from `basis` in this field (read in `calendar`).
        func differs(_ basis: TaskItem, _ task: TaskItem, calendar: Calendar) -> Bool {
            switch self {
            case .title: basis.title != task.title
            case .notes: basis.notes != task.notes
            case .priority: basis.priority != task.priority
            case .due: basis.due != task.due || basis.isAllDay != task.isAllDay || basis.dueDay != task.dueDay
            case .completion: basis.isCompleted != task.isCompleted || basis.completedAt != task.completedAt
            case .tags: basis.tags != task.tags
            case .parent: basis.parentID != task.parentID
            // By the rule as written: a due date moved to or from the 29th–31st changes it,
            // and a client's parts Slate has no form for (BYDAY…) stay until it changes.
            case .recurrence: VTodoRendering.rule(basis, calendar: calendar) != VTodoRendering.rule(task, calendar: calendar)
            case .order: basis.order != task.order
            case .flag: basis.isFlagged != task.isFlagged
            }
        }
    }

    /// A new calendar object for `task`, CRLF line ends, folded at 75 octets.
    static func fresh(_ task: TaskItem, uid: String, parentUID: String?, calendar: Calendar) -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Slate//Slate task manager//EN\r\nBEGIN:VTODO\r\n"
        text += ICalendarText.line("UID", [], uid)
        text += ICalendarText.line("DTSTAMP", [], BasicDate.formatUTC(task.modified))
        text += ICalendarText.line("CREATED", [], BasicDate.formatUTC(task.created))
        text += ICalendarText.line("LAST-MODIFIED", [], BasicDate.formatUTC(task.modified))
        for field in Field.allCases {
            text += lines(field, task: task, parentUID: parentUID, zone: nil, calendar: calendar).joined()
        }
        for alarm in ICalendarAlarms.components(for: task, calendar: calendar) {
            text += alarm.map { ICalendarText.line($0.name, $0.parameters, $0.value) }.joined()
        }
        return text + "END:VTODO\r\nEND:VCALENDAR\r\n"
    }

    /// The property lines (each ending in CRLF) that carry `field` of `task`; `zone` is the
    /// time zone a timed due date is written in (nil: UTC).
    static func lines(_ field: Field, task: TaskItem, parentUID: String?, zone: TimeZone?, calendar: Calendar) -> [String] {
        switch field {
        case .title:
            return [ICalendarText.line("SUMMARY", [], ICalendarText.escape(task.title))]
        case .notes:
            return task.notes.isEmpty ? [] : [ICalendarText.line("DESCRIPTION", [], ICalendarText.escape(task.notes))]
        case .priority:
            guard let number = ICalendarFormat.priorityNumber(task.priority) else { return [] }
            return [ICalendarText.line("PRIORITY", [], String(number))]
                + (task.priority == .critical ? [ICalendarText.line("X-SLATE-PRIORITY", [], "critical")] : [])
        case .due:
            guard let due = task.due(in: calendar) else { return [] }
            if task.isAllDay {
                let day = BasicDate.formatDay(due, calendar: calendar)
                return [ICalendarText.line("DTSTART", [("VALUE", "DATE")], day), ICalendarText.line("DUE", [("VALUE", "DATE")], day)]
            }
            if let zone {
                let local = BasicDate.calendar(in: zone)
                let parts = local.dateComponents([.year, .month, .day, .hour, .minute, .second], from: due)
                let value = String(format: "%04d%02d%02dT%02d%02d%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
                return [ICalendarText.line("DUE", [("TZID", zone.identifier)], value)]
            }
            return [ICalendarText.line("DUE", [], BasicDate.formatUTC(due))]
        case .completion:
            guard task.isCompleted else { return [ICalendarText.line("STATUS", [], "NEEDS-ACTION")] }
            return [ICalendarText.line("STATUS", [], "COMPLETED")]
                + (task.completedAt.map { [ICalendarText.line("COMPLETED", [], BasicDate.formatUTC($0))] } ?? [])
                + [ICalendarText.line("PERCENT-COMPLETE", [], "100")]
        case .tags:
            return task.tags.isEmpty ? [] : [ICalendarText.line("CATEGORIES", [], task.tags.map(ICalendarText.escape).joined(separator: ","))]
        case .parent:
            return parentUID.map { [ICalendarText.line("RELATED-TO", [("RELTYPE", "PARENT")], $0)] } ?? []
        case .recurrence:
            return rule(task, calendar: calendar).map { [ICalendarText.line("RRULE", [], $0)] } ?? []
        case .order:
            guard abs(task.order) < 1e15 else { return [] }
            return [ICalendarText.line("X-APPLE-SORT-ORDER", [], String(Int64(task.order.rounded())))]
        case .flag:
            return task.isFlagged ? [ICalendarText.line("X-SLATE-FLAGGED", [], "TRUE")] : []
        }
    }

    /// The RRULE value of `task`'s repeat, nil without one.
    static func rule(_ task: TaskItem, calendar: Calendar) -> String? {
        task.recurrence?.rrule(dueOn: task.dueMonthDay(in: calendar))
    }

    /// A digest of every field the rendering compares (and the alerts): equal stamps mean
    /// the stored bytes need no rewrite. FNV-1a over the fields' text.
    static func stamp(_ task: TaskItem) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash = (hash ^ 0x1F) &* 0x0000_0100_0000_01B3
        }
        add(task.title)
        add(task.notes)
        add(String(task.priority.rawValue))
        add(task.due.map { String($0.timeIntervalSinceReferenceDate) } ?? "-")
        add(task.isAllDay ? "d" : "t")
        add(task.isCompleted ? "c" : "o")
        add(task.completedAt.map { String($0.timeIntervalSinceReferenceDate) } ?? "-")
        task.tags.forEach(add)
        add(task.parentID?.uuidString ?? "-")
        add(task.recurrence?.storageValue ?? "-")
        add(String(task.order))
        add(task.isFlagged ? "f" : "u")
        task.alerts.forEach { add($0.text) }
        return String(hash, radix: 16)
    }

    /// The fields an occurrence's override carries (its repeat, parent, order and flag are the series').
    static let occurrenceFields: [Field] = [.title, .notes, .priority, .due, .completion, .tags]

    /// `data` with the lines of every field in which `task` differs from `basis` rewritten
    /// in the main VTODO (the one without RECURRENCE-ID), or with `occurrence` (a
    /// `VTodoOverride.key`) in that override; every other byte is kept, but for the lines
    /// that date the version (`versionEdits`). `changes`: how far the task has moved on since
    /// the client stored `data` (its revision less the stored body's), which a `SEQUENCE`
    /// goes up by, so that each version Slate serves has a number of its own.
    static func rewrite(_ data: Data, basis: TaskItem, task: TaskItem, parentUID: String?, calendar: Calendar,
                        occurrence: String? = nil, changes: Int = 1) -> Data {
        let changed = (occurrence == nil ? Field.allCases : occurrenceFields).filter { $0.differs(basis, task, calendar: calendar) }
        // A due date moved in Slate moves what the client's alarms fire at, too.
        let alarmsChanged = occurrence == nil && (basis.alerts != task.alerts || changed.contains(.due))
        guard !changed.isEmpty || alarmsChanged else { return data }
        let lines = ContentLines(data)
        // Read as a whole only when dates or alarms are rewritten (a retitle needs the lines alone).
        let root = changed.contains(.due) || alarmsChanged ? (try? ICalendarText.parse(data))?.first : nil
        let zones = root.map(CalendarTimeZones.init) ?? .none
        let todos = root?.components.filter { $0.name == "VTODO" } ?? []
        let found: [Int]?
        let todo: ICalendarComponent?
        if let occurrence {
            let ordinal = overrideOrdinal(data, key: occurrence, calendar: calendar)
            let bodies = lines.todoBodies()
            found = ordinal.flatMap { bodies.indices.contains($0) ? bodies[$0] : nil }
            todo = ordinal.flatMap { todos.indices.contains($0) ? todos[$0] : nil }
        } else {
            found = lines.mainTodo()
            todo = todos.first { $0.property("RECURRENCE-ID") == nil } ?? todos.first
        }
        guard let body = found else { return data }
        let crlf = data.firstRange(of: Data([0x0D, 0x0A])) != nil
        func ends(_ new: [String]) -> [String] { crlf ? new : new.map { $0.replacingOccurrences(of: "\r\n", with: "\n") } }
        var edits: [(at: Int, remove: [Int], insert: [String])] = []
        var start = todo?.property("DTSTART").flatMap { try? VTodoContent.date($0, calendar: calendar, zones: zones).0 }
        for field in changed {
            if field == .due {
                let dates = VTodoDates.edits(lines: lines, body: body, todo: todo, zones: zones, task: task, calendar: calendar)
                edits += dates.edits.map { ($0.at, $0.remove, ends($0.insert)) }
                start = dates.start
                continue
            }
            var remove = body.filter { field.propertyNames.contains(lines.names[$0]) }
            if field == .parent {
                // Only the parent link: other relations (siblings, children) stay.
                remove = remove.filter { lines.relationType($0) == "PARENT" }
            }
            let new = self.lines(field, task: task, parentUID: parentUID, zone: nil, calendar: calendar)
            edits.append((remove.first ?? lines.insertionPoint(body), remove, ends(new)))
        }
        if alarmsChanged {
            edits += VTodoAlarms.edits(data, lines: lines, basis: basis, task: task, start: start, calendar: calendar, crlf: crlf)
        }
        edits += versionEdits(lines: lines, body: body, modified: task.modified, changes: changes).map { ($0.at, $0.remove, ends($0.insert)) }
        return lines.applying(edits)
    }

    /// The edits that date a rewritten VTODO at Slate's change: `DTSTAMP` and
    /// `LAST-MODIFIED` set to `modified` (added when missing), and `SEQUENCE`, when the
    /// client wrote one, `changes` (at least 1) higher. A client that orders versions by
    /// these would otherwise see Slate's edit as its own older copy.
    static func versionEdits(lines: ContentLines, body: [Int], modified: Date, changes: Int) -> [(at: Int, remove: [Int], insert: [String])] {
        let stamp = BasicDate.formatUTC(modified)
        var edits: [(at: Int, remove: [Int], insert: [String])] = ["DTSTAMP", "LAST-MODIFIED"].map { name in
            let remove = body.filter { lines.names[$0] == name }
            return (remove.first ?? lines.insertionPoint(body), remove, [ICalendarText.line(name, [], stamp)])
        }
        if let index = body.first(where: { lines.names[$0] == "SEQUENCE" }),
           let sequence = Int(lines.value(index)), (0..<Int(Int32.max)).contains(sequence) {
            let next = min(sequence + max(changes, 1), Int(Int32.max))
            edits.append((index, [index], [ICalendarText.line("SEQUENCE", [], String(next))]))
        }
        return edits
    }

    /// `data` without the override whose RECURRENCE-ID has `key` (from its BEGIN:VTODO to
    /// its END:VTODO, alarms included); every other byte is kept.
    static func removingOverride(_ data: Data, key: String, calendar: Calendar) -> Data {
        guard let ordinal = overrideOrdinal(data, key: key, calendar: calendar) else { return data }
        let lines = ContentLines(data)
        guard let begin = lines.todoBegins().dropFirst(ordinal).first else { return data }
        var end = begin + 1
        while end < lines.raw.count, !(lines.names[end] == "END" && lines.depths[end] == lines.depths[begin]) { end += 1 }
        guard end < lines.raw.count else { return data }
        return lines.applying([(at: begin, remove: Array(begin...end), insert: [])])
    }

    /// The position among the object's VTODOs of the override whose RECURRENCE-ID has `key`.
    static func overrideOrdinal(_ data: Data, key: String, calendar: Calendar) -> Int? {
        guard let roots = try? ICalendarText.parse(data), let root = roots.first else { return nil }
        let zones = CalendarTimeZones(root)
        let todos = root.components.filter { $0.name == "VTODO" }
        return todos.firstIndex { todo in
            guard let property = todo.property("RECURRENCE-ID"),
                  let (date, isDay) = try? VTodoContent.date(property, calendar: calendar, zones: zones) else { return false }
            return VTodoOverride.key(date, isDay: isDay, calendar: calendar) == key
        }
    }

    /// Calendar bytes as text: when a fold splits a UTF-8 character, that line is
    /// unfolded and folded again on character boundaries.
    static func text(_ data: Data) -> String {
        if let text = String(validating: data, as: UTF8.self) { return text }
        let lines = ContentLines(data)
        return lines.raw.map { raw -> String in
            if let text = String(validating: raw, as: UTF8.self) { return text }
            var bytes = [UInt8]()
            var index = raw.startIndex
            while index < raw.endIndex {
                if raw[index] == 0x0D || raw[index] == 0x0A {
                    let next = index + (raw[index] == 0x0D && index + 1 < raw.endIndex && raw[index + 1] == 0x0A ? 2 : 1)
                    if next < raw.endIndex, raw[next] == 0x20 || raw[next] == 0x09 { index = next + 1; continue }
                    break
                }
                bytes.append(raw[index])
                index += 1
            }
            return ICalendarText.fold(String(decoding: bytes, as: UTF8.self))
        }.joined()
    }
}

import Foundation
import SlateStore

/// Completing one occurrence of a repeating task, as each kind of client writes it, becomes
/// what completing it in Slate gives: one completed task and the series at its next
/// occurrence, with no duplicate for the client on its next sync.
///
/// - **Thunderbird, jtx Board** add a VTODO with RECURRENCE-ID and STATUS:COMPLETED to the
///   series' resource and leave the master as it was. Each completed override becomes a
///   completed task of its own (a `CalendarOccurrence`, served inside the series' resource,
///   never as a resource of its own), and the series' task is due at the first occurrence
///   after the latest completed one. The stored bytes stay exactly as sent.
/// - **tasks.org** moves DUE (and DTSTART) of the same VTODO to the rule's next occurrence
///   and leaves it open: Slate keeps a completed copy of the occurrence that was due (a new
///   resource for the client), and the series moves on.
/// - **Apple Reminders** stores a completed copy with a new UID and moves the original on
///   as tasks.org does: the copy is the completed task, so no second copy is made; if the
///   move arrives first, the copy Slate made is replaced by Apple's.
///
/// A move is read as a completion only when DUE goes from D to exactly the rule's next
/// occurrence after D (or, for tasks.org's "repeat after completion", to the next one after
/// today at D's time), the VTODO stays open and keeps its RRULE. Moving a weekly task's due
/// date by exactly one week by hand in such a client is therefore also read as completing it.
extension Slate {
    /// The series' stored occurrences by task id.
    func occurrences(ofSeries id: UUID, in context: ModelContext) throws -> [CalendarOccurrence] {
        let accountID = self.accountID
        return try context.fetch(FetchDescriptor<CalendarOccurrence>().matching(\.accountID, is: accountID).matching(\.seriesID, is: id))
    }

    /// The account's occurrence rows, by series.
    func occurrencesBySeries(in context: ModelContext) throws -> [UUID: [CalendarOccurrence]] {
        let accountID = self.accountID
        let rows = try context.fetch(FetchDescriptor<CalendarOccurrence>(predicate: #Predicate { $0.accountID == accountID }))
        return Dictionary(grouping: rows, by: \.seriesID)
    }

    /// Turns the client's RECURRENCE-ID overrides into occurrence tasks (created, updated,
    /// or deleted when the client dropped the override) and moves the series' due date to
    /// the first occurrence after the latest completed one. `series` is being stored.
    /// `servedAsSent` is false when the client sent the override of an occurrence deleted
    /// in Slate: it stays deleted, so the bytes served are not the bytes sent.
    /// `movesParentCount`: an occurrence task was added, removed, completed or reopened —
    /// each is a subtask of the series' parent, whose count that moves.
    @discardableResult
    func applyOverrides(_ content: VTodoContent, to series: inout TaskItem, isNew: Bool,
                        in context: ModelContext) throws -> (servedAsSent: Bool, movesParentCount: Bool) {
        let existing = isNew ? [] : try occurrences(ofSeries: series.id, in: context)
        guard !content.overrides.isEmpty || !existing.isEmpty else { return (true, false) }
        var servedAsSent = true
        var movesParentCount = false
        var byKey = Dictionary(existing.map { ($0.recurrenceKey, $0) }, uniquingKeysWith: { first, _ in first })
        for override in content.overrides {
            if let row = byKey.removeValue(forKey: override.key) {
                // Known: follow the client's changes. One deleted in Slate stays deleted.
                guard let read = try context.revisioned(TaskItem.self, id: row.id) else {
                    servedAsSent = false
                    continue
                }
                var task = read.model
                apply(override.content, to: &task)
                if task != read.model {
                    task.modified = now
                    context.update(task, expectedRevision: read.revision)
                    if task.isCompleted != read.model.isCompleted { movesParentCount = true }
                }
                var updated = row
                updated.basis = task
                context.update(updated)
            } else if override.content.isCompleted {
                var task = TaskItem(id: UUID(), accountID: accountID, title: override.content.title, created: now)
                apply(override.content, to: &task)
                task.listID = series.listID
                task.parentID = series.parentID
                task.order = series.order
                task.modified = now
                context.insert(task)
                movesParentCount = true
                context.insert(CalendarOccurrence(id: task.id, accountID: accountID, seriesID: series.id,
                                                  recurrenceKey: override.key, basis: task))
            }
        }
        for row in byKey.values {
            // The client dropped the override: the occurrence is the series' again.
            if try context.model(TaskItem.self, id: row.id) != nil {
                context.delete(TaskItem.self, id: row.id)
                movesParentCount = true
            }
            context.delete(CalendarOccurrence.self, id: row.id)
        }
        let completed = content.overrides.filter(\.content.isCompleted).map(\.occurrence)
        if let latest = completed.max(), let rule = content.recurrence, let due = content.due {
            let base = content.start ?? due
            series.due = Self.firstOccurrence(after: latest, base: base, rule: rule, calendar: calendar)
                .map { $0.addingTimeInterval(due.timeIntervalSince(base)) } ?? due
        }
        return (servedAsSent, movesParentCount)
    }

    /// The fields an override carries, onto its occurrence task (never its repeat).
    private func apply(_ content: VTodoContent, to task: inout TaskItem) {
        task.title = content.title
        task.notes = content.notes
        task.priority = content.priority
        setDue(content.due.map { DueDate(date: Timestamp.truncatedToMilliseconds($0), isAllDay: content.isAllDay) }, on: &task)
        task.isCompleted = content.isCompleted
        task.completedAt = content.isCompleted ? (content.completedAt.map(Timestamp.truncatedToMilliseconds) ?? task.completedAt ?? now) : nil
        task.tags = content.tags
        task.recurrence = nil
    }

    /// The first occurrence of `rule` from `base` that is later than `moment`, nil when the
    /// calendar cannot say. The step is found by arithmetic (the distance over the rule's
    /// average period), then corrected one step at a time: months and years vary by a few
    /// days, never by a whole period, so at most `maximumCorrections` steps each way are
    /// taken whatever the distance — a daily series begun centuries ago costs what a new one does.
    static func firstOccurrence(after moment: Date, base: Date, rule: Recurrence, calendar: Calendar) -> Date? {
        func occurrence(_ step: Int) -> Date? {
            calendar.date(byAdding: rule.frequency.component, value: step * rule.interval, to: base)
        }
        let average: Double = switch rule.frequency {
        case .daily: 86_400
        case .weekly: 604_800
        case .monthly: 2_629_746
        case .yearly: 31_556_952
        }
        let estimate = moment.timeIntervalSince(base) / (average * Double(rule.interval))
        guard estimate < 1e9 else { return nil }
        var step = max(Int(estimate.rounded(.down)), 1)
        // Back while the step before is still later than the moment, then on while this one is not.
        for _ in 0..<maximumCorrections where step > 1 {
            guard let previous = occurrence(step - 1) else { return nil }
            if previous <= moment { break }
            step -= 1
        }
        for _ in 0..<maximumCorrections {
            guard let next = occurrence(step) else { return nil }
            if next > moment { return next }
            step += 1
        }
        return nil
    }

    /// The most single steps `firstOccurrence` takes after its estimate, each way.
    static let maximumCorrections = 8

    /// True when a client moved an open repeating task's due date on by one occurrence and
    /// kept it open: how tasks.org and Apple Reminders complete an occurrence.
    func isCompletionMove(from previous: TaskItem, to content: VTodoContent) -> Bool {
        guard let rule = previous.recurrence, !previous.isCompleted, content.recurrence != nil, !content.isCompleted,
              content.overrides.isEmpty, let old = previous.due, let new = content.due, new > old else { return false }
        if abs(rule.next(after: old, calendar: calendar).timeIntervalSince(new)) < 1 { return true }
        // "Repeat after completion": the next occurrence after today, at the old time of day.
        let today = calendar.startOfDay(for: now)
        let time = old.timeIntervalSince(calendar.startOfDay(for: old))
        return calendar.isDate(new, inSameDayAs: rule.next(after: today, calendar: calendar))
            && abs(new.timeIntervalSince(calendar.startOfDay(for: new)) - time) < 1
    }

    /// A completed task of `list` with this title and due date that no client stored: the
    /// copy Slate keeps when a client moves a repeating task on, or one completed in Slate.
    func completedCopy(title: String, due: Date?, in listID: UUID?, context: ModelContext) throws -> TaskItem? {
        let accountID = self.accountID
        let candidates = try context.fetch(FetchDescriptor<TaskItem>(predicate: #Predicate {
            $0.accountID == accountID && $0.listID == listID && $0.isCompleted == true && $0.title == title
        }))
        for task in candidates where task.recurrence == nil && Self.sameDue(task.due(in: calendar), due) {
            return task
        }
        return nil
    }

    /// Keeps the occurrence that was due as a completed copy, unless the client stored its
    /// own copy already (Apple).
    func keepCompletedCopy(of previous: TaskItem, in context: ModelContext) throws {
        if let copy = try completedCopy(title: previous.title, due: previous.due(in: calendar), in: previous.listID, context: context),
           copy.id != previous.id {
            return
        }
        var copy = previous.copied(now: now, completed: true)
        copy.recurrence = nil
        context.insert(copy)
    }

    /// When a client stores a completed copy of a repeating task's occurrence (Apple) after
    /// it moved the series on, the copy Slate kept is replaced by the client's: deleted here,
    /// so that the client's next sync sees it gone.
    func replaceKeptCopy(with content: VTodoContent, in listID: UUID?, context: ModelContext) throws {
        guard content.isCompleted, content.recurrence == nil,
              let kept = try completedCopy(title: content.title, due: content.due, in: listID, context: context),
              try context.model(CalendarResource.self, id: kept.id) == nil,
              try context.model(CalendarOccurrence.self, id: kept.id) == nil else { return }
        context.delete(kept)
    }

    static func sameDue(_ lhs: Date?, _ rhs: Date?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): abs(lhs.timeIntervalSince(rhs)) < 1
        default: false
        }
    }
}

import Foundation
import SlateStore

extension Slate {
    // MARK: Reading

    /// The tasks a view shows, in its order.
    public func tasks(_ query: TaskQuery = TaskQuery()) throws -> [TaskItem] {
        try translatingErrors { try makeContext().fetch(query.descriptor(accountID: accountID, now: now, calendar: calendar)) }
    }

    /// Like `tasks`, with each task's revision (for ETags).
    public func revisionedTasks(_ query: TaskQuery = TaskQuery()) throws -> [Revisioned<TaskItem>] {
        try translatingErrors {
            try makeContext().fetchRevisioned(query.descriptor(accountID: accountID, now: now, calendar: calendar))
        }
    }

    /// How many tasks the query matches, ignoring its limit and offset.
    public func count(_ query: TaskQuery = TaskQuery()) throws -> Int {
        try translatingErrors { try makeContext().fetchCount(query.descriptor(accountID: accountID, now: now, calendar: calendar)) }
    }

    /// The task with `id` in this account and its revision.
    public func task(id: UUID) throws -> Revisioned<TaskItem> {
        guard let found = try makeContext().revisioned(TaskItem.self, id: id), found.model.accountID == accountID else {
            throw SlateError.notFound("task with id \(id.uuidString.lowercased())")
        }
        return found
    }

    /// The task people refer to as `reference`: its number (`12`, `#12`) or a prefix of
    /// its id of at least 4 characters.
    public func task(reference: String) throws -> Revisioned<TaskItem> {
        let text = reference.trimmingCharacters(in: .whitespaces)
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        let accountID = self.accountID
        let context = makeContext()
        if let number = Int(digits), number > 0, digits.allSatisfy(\.isASCII) {
            var descriptor = FetchDescriptor<TaskItem>()
            descriptor.where(\.number, is: number)
            descriptor.where(\.accountID, is: accountID)
            let found = try context.fetchRevisioned(descriptor)
            if let task = found.first { return task }
            // An id can start with digits only: "638964" may be the start of one.
            guard !text.hasPrefix("#"), text.count >= 4,
                  let match = try context.models(TaskItem.self, idPrefix: text, partition: accountID, limit: 1).first
            else { throw SlateError.notFound("task #\(number)") }
            return try task(id: match.id)
        }
        guard text.count >= 4, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw SlateError.invalid(field: "task", message: "'\(reference)' is not a task number (such as 12 or #12) or an id prefix of at least 4 characters.")
        }
        let shown = 5
        let matches = try context.models(TaskItem.self, idPrefix: text, partition: accountID, limit: shown + 1)
        guard let match = matches.first else { throw SlateError.notFound("task with an id starting \(text.lowercased())") }
        guard matches.count == 1 else {
            throw SlateError.ambiguous(text, matches: matches.prefix(shown).map { "#\($0.number) “\($0.title.count > 40 ? $0.title.prefix(39) + "…" : $0.title)”" }, more: matches.count > shown)
        }
        return try task(id: match.id)
    }

    // MARK: Creating

    /// Creates a task at the end of its list's manual order.
    @discardableResult
    public func addTask(_ draft: TaskDraft) throws -> TaskItem {
        try addRevisionedTask(draft).model
    }

    /// Like `addTask`, with the new task's revision (for an ETag) from the same read.
    public func addRevisionedTask(_ draft: TaskDraft) throws -> Revisioned<TaskItem> {
        let task = try makeTask(draft)
        try retryingConflicts {
            let context = makeContext()
            context.insert(task)
            try touchParents([task.parentID], except: [], in: context)
            try save(context, undoLabel: "Add “\(task.title)”")
        }
        return try self.task(id: task.id)
    }

    /// Validates a draft into a task (not yet saved).
    func makeTask(_ draft: TaskDraft, order: Double? = nil) throws -> TaskItem {
        let title = try TaskRules.validTitle(draft.title)
        let notes = try TaskRules.validNotes(draft.notes)
        if let listID = draft.listID { _ = try list(id: listID) }
        var listID = draft.listID
        if let parentID = draft.parentID {
            try checkParent(parentID, for: nil)
            // A new subtask goes in its parent's list unless it names one: on every surface
            // (the API's subtask route, a task posted with a parent, `slate add --parent`).
            if listID == nil { listID = try task(id: parentID).model.listID }
        }
        let created = now
        // A repeating task needs a first occurrence: today, as in Reminders.
        let due = draft.due ?? (draft.recurrence == nil ? nil : DueDate(date: calendar.startOfDay(for: created), isAllDay: true))
        let alerts = try TaskAlert.validated(try draft.alerts ?? defaultAlerts(for: due),
                                             hasDue: due != nil)
        var task = TaskItem(
            accountID: accountID, title: title, notes: notes, created: created, modified: created, priority: draft.priority,
            isFlagged: draft.isFlagged, listID: listID, parentID: draft.parentID,
            order: try order ?? nextOrder(in: listID), tags: try TaskRules.validTags(draft.tags),
            recurrence: try TaskRules.validRecurrence(draft.recurrence), alerts: alerts)
        setDue(due, on: &task)
        return task
    }

    private func nextOrder(in listID: UUID?) throws -> Double {
        try highestOrder(in: listID, context: makeContext()) + 1
    }

    /// The highest manual-order position among the account's tasks in a list (0 when it
    /// has none), read from the list's order index.
    func highestOrder(in listID: UUID?, context: ModelContext) throws -> Double {
        let descriptor = FetchDescriptor<TaskItem>().matching(\.accountID, is: accountID).matching(\.listID, is: listID)
        return try context.maximum(\.order, descriptor) ?? 0
    }

    // MARK: Changing

    /// Applies `patch` to the task. With `expectedRevision`, refuses (`SlateError.conflict`)
    /// when someone else changed the task since that revision.
    @discardableResult
    public func updateTask(_ id: UUID, _ patch: TaskPatch, expectedRevision: Int? = nil) throws -> TaskItem {
        try updateRevisionedTask(id, patch, expectedRevision: expectedRevision).model
    }

    /// Like `updateTask`, with the task's new revision (for an ETag) from the same read.
    public func updateRevisionedTask(_ id: UUID, _ patch: TaskPatch, expectedRevision: Int? = nil) throws -> Revisioned<TaskItem> {
        // Without a caller's revision, a write that lands between this read and the save is
        // not the caller's conflict: the patch is applied again on top of it.
        try retryingConflicts(unless: expectedRevision) { try applyPatch(id, patch, expectedRevision: expectedRevision) }
    }

    private func applyPatch(_ id: UUID, _ patch: TaskPatch, expectedRevision: Int?) throws -> Revisioned<TaskItem> {
        let read = try self.task(id: id)
        var task = read.model
        if let title = patch.title { task.title = try TaskRules.validTitle(title) }
        if let notes = patch.notes { task.notes = try TaskRules.validNotes(notes) }
        if let listID = patch.listID {
            if let listID { _ = try list(id: listID) }
            if task.listID != listID { task.order = try nextOrder(in: listID) }
            task.listID = listID
        }
        if let priority = patch.priority { task.priority = priority }
        if let due = patch.due {
            let before = task.due
            setDue(due, on: &task)
            // A date moved by hand is the day the repeat belongs on from now on.
            if task.due != before { task.recurrence?.dayOfMonth = nil }
            // Alerts relative to a due date that is gone go with it.
            if due == nil, patch.alerts == nil { task.alerts.removeAll(where: \.isRelative) }
            // A time that became a day: a lead time ("15 minutes before") would count back
            // from the day's midnight (23:45 the night before); it becomes that many days
            // before, at 9:00, as all-day alerts are.
            if due?.isAllDay == true, read.model.due != nil, !read.model.isAllDay, patch.alerts == nil {
                task.alerts = TaskAlert.forAllDay(task.alerts)
            }
        }
        if let alerts = patch.alerts { task.alerts = alerts }
        if patch.alerts != nil || patch.due != nil {
            task.alerts = try TaskAlert.validated(task.alerts, hasDue: task.due != nil)
        }
        if let isFlagged = patch.isFlagged { task.isFlagged = isFlagged }
        if let tags = patch.tags { task.tags = try TaskRules.validTags(tags) }
        if let recurrence = patch.recurrence {
            // The same repeat sent again (a form sends every field) keeps the day it belongs on.
            let valid = try TaskRules.validRecurrence(recurrence)
            if valid?.isSameRule(as: task.recurrence) != true { task.recurrence = valid }
            // A repeating task needs a first occurrence: today, as when it is created so.
            if task.recurrence != nil, task.due == nil {
                setDue(DueDate(date: calendar.startOfDay(for: now), isAllDay: true), on: &task)
            }
        }
        if let parentID = patch.parentID {
            if let parentID { try checkParent(parentID, for: task.id) }
            task.parentID = parentID
        }
        // A patch that changes nothing (a form sending every field, the same day from another
        // zone) writes nothing: no new revision for every sync client to fetch, nothing to undo.
        if task == read.model, patch.isCompleted ?? task.isCompleted == task.isCompleted, expectedRevision.map(read.accepts) ?? true {
            return read
        }
        task.modified = now
        let context = makeContext()
        var label = "Edit “\(task.title)”"
        if let isCompleted = patch.isCompleted, isCompleted != task.isCompleted {
            label = try stageCompletion(&task, isCompleted, in: context).label
        }
        if task.parentID != read.model.parentID || task.isCompleted != read.model.isCompleted {
            try touchParents([read.model.parentID, task.parentID], except: [task.id], in: context)
        }
        // Without a caller's revision, the one just read still guards against a write
        // that lands between this read and the save; so does it when the caller's revision
        // differs only by touches (its subtasks changed, nothing it saw).
        context.update(task, expectedRevision: read.guarding(expectedRevision))
        // Read back next (with, in a group commit, the subtask count an answer shows): on
        // PostgreSQL in the save's last round trip.
        context.readsAfterSave = [.revisioned(TaskItem.self, id: id)]
            + [ExpectedRead.childCounts(TaskItem.self, by: \.parentID, among: [id], partition: accountID, unset: \.isCompleted,
                                        dialect: container.dialect)].compactMap { $0 }
        try save(context, undoLabel: label)
        return try self.task(id: id)
    }

    /// Completes or reopens tasks in one change. Completing a repeating task creates its
    /// next occurrence, once: the repeat rule moves to the new task, and so do its subtasks
    /// (`carrySubtasks`).
    @discardableResult
    public func setCompleted(_ ids: [UUID], _ isCompleted: Bool) throws -> [TaskItem] {
        let ids = Self.distinct(ids)
        return try retryingConflicts { try applyCompletion(ids, isCompleted) }.tasks
    }

    /// Completes tasks in one change, as `setCompleted(_:_:)` does, and gives the next
    /// occurrence each repeating one got, by the completed task's id (for "next: Wed").
    public func complete(_ ids: [UUID]) throws -> (tasks: [TaskItem], next: [UUID: TaskItem]) {
        let ids = Self.distinct(ids)
        let (tasks, nextIDs) = try retryingConflicts { try applyCompletion(ids, true) }
        // Read back in one query, for the numbers the save gave them.
        let made = try makeContext().revisioned(TaskItem.self, ids: Array(nextIDs.values))
        let byID = Dictionary(uniqueKeysWithValues: made.map { ($0.model.id, $0.model) })
        return (tasks, nextIDs.compactMapValues { byID[$0] })
    }

    private func applyCompletion(_ ids: [UUID], _ isCompleted: Bool) throws -> (tasks: [TaskItem], next: [UUID: UUID]) {
        let context = makeContext()
        var labels: [String] = []
        var parents: [UUID?] = []
        var next: [UUID: UUID] = [:]
        for id in ids {
            let read = try self.task(id: id)
            var task = read.model
            guard task.isCompleted != isCompleted else { continue }
            let staged = try stageCompletion(&task, isCompleted, completing: isCompleted ? Set(ids) : [], in: context)
            labels.append(staged.label)
            next[id] = staged.next
            task.modified = now
            context.update(task, expectedRevision: read.revision)
            parents.append(task.parentID)
        }
        guard !labels.isEmpty else { return (try ids.map { try task(id: $0).model }, [:]) }
        try touchParents(parents, except: Set(ids), in: context)
        try save(context, undoLabel: labels.count == 1 ? labels[0] : "\(isCompleted ? "Complete" : "Reopen") \(labels.count) tasks")
        return (try ids.map { try task(id: $0).model }, next)
    }

    /// Marks the completion on `task` and stages the next occurrence of a repeating task
    /// (its id is `next`). `completing`: the tasks completed in the same change (a subtask
    /// among them is done).
    private func stageCompletion(_ task: inout TaskItem, _ isCompleted: Bool, completing: Set<UUID> = [],
                                 in context: ModelContext) throws -> (label: String, next: UUID?) {
        task.isCompleted = isCompleted
        task.completedAt = isCompleted ? now : nil
        if isCompleted, let recurrence = task.recurrence {
            // An all-day date repeats from its day's start here, wherever it was set.
            let anchor = task.due(in: calendar) ?? calendar.startOfDay(for: now)
            var next = task.copied(now: now, completed: false)
            let (nextDue, following) = recurrence.advanced(from: anchor, calendar: calendar)
            next.recurrence = following
            setDue(DueDate(date: nextDue, isAllDay: task.due == nil ? true : task.isAllDay), on: &next)
            next.alerts = task.alerts.map { $0.moved(by: nextDue.timeIntervalSince(anchor)) }
            task.recurrence = nil
            context.insert(next)
            try carrySubtasks(from: task.id, to: next.id, shift: nextDue.timeIntervalSince(anchor), completing: completing, in: context)
            return ("Complete “\(task.title)”", next.id)
        }
        return ("\(isCompleted ? "Complete" : "Reopen") “\(task.title)”", nil)
    }

    /// `ids` without repeats, in their first order: a task named twice is one task.
    static func distinct(_ ids: [UUID]) -> [UUID] {
        var seen = Set<UUID>()
        return ids.filter { seen.insert($0).inserted }
    }

    /// A repeating task's subtasks go on with its next occurrence, as a checklist does: the
    /// open ones move there, and the completed ones are there again, open (done this time,
    /// to do next time), their dates and alerts moved by as much as the repeat's. The
    /// completed occurrence keeps the subtasks completed on it. The same for their own
    /// subtasks, level by level.
    private func carrySubtasks(from parentID: UUID, to nextID: UUID, shift: TimeInterval, completing: Set<UUID>,
                               in context: ModelContext) throws {
        let accountID = self.accountID
        let parent: UUID? = parentID
        let children = try context.fetch(FetchDescriptor<TaskItem>(
            predicate: #Predicate { $0.accountID == accountID && $0.parentID == parent }))
            .sorted { $0.order < $1.order }
        for var child in children {
            guard child.isCompleted || completing.contains(child.id) else {
                child.parentID = nextID
                child.modified = now
                context.update(child)
                continue
            }
            var copy = child.copied(now: now, completed: false)
            copy.parentID = nextID
            if let due = child.due(in: calendar) {
                setDue(DueDate(date: due.addingTimeInterval(shift), isAllDay: child.isAllDay), on: &copy)
            }
            copy.alerts = child.alerts.map { $0.moved(by: shift) }
            context.insert(copy)
            try carrySubtasks(from: child.id, to: copy.id, shift: shift, completing: completing, in: context)
        }
    }

    /// Flags or unflags tasks in one change.
    @discardableResult
    public func setFlagged(_ ids: [UUID], _ isFlagged: Bool) throws -> [TaskItem] {
        let ids = Self.distinct(ids)
        return try retryingConflicts { try applyFlag(ids, isFlagged) }
    }

    private func applyFlag(_ ids: [UUID], _ isFlagged: Bool) throws -> [TaskItem] {
        let context = makeContext()
        var tasks: [TaskItem] = []
        for id in ids {
            let read = try self.task(id: id)
            var task = read.model
            task.isFlagged = isFlagged
            task.modified = now
            context.update(task, expectedRevision: read.revision)
            tasks.append(task)
        }
        let what = tasks.count == 1 ? "“\(tasks[0].title)”" : "\(tasks.count) tasks"
        try save(context, undoLabel: "\(isFlagged ? "Flag" : "Unflag") \(what)")
        return tasks
    }

    /// Deletes tasks (and their subtasks) in one change.
    ///
    /// Returns how many tasks went: these and their subtasks (the delete rule's cascade).
    @discardableResult
    public func deleteTasks(_ ids: [UUID], expectedRevision: Int? = nil) throws -> Int {
        let ids = Self.distinct(ids)
        return try retryingConflicts(unless: expectedRevision) {
            let context = makeContext()
            let named = Set(ids)
            // A subtask of another task named goes with that one's cascade: deleted on its own
            // too, after it, it would no longer be there (whatever order they were named in).
            let reads = try ids.map { try self.task(id: $0) }.filter { read in
                // One task named: no other to be under (no reads of its ancestors).
                guard named.count > 1 else { return true }
                var parent = read.model.parentID
                var depth = 0
                while let id = parent, depth <= TaskRules.maximumSubtaskDepth {
                    if named.contains(id) { return false }
                    parent = try self.task(id: id).model.parentID
                    depth += 1
                }
                return true
            }
            let tasks = reads.map(\.model)
            // Touched before the deletes: a parent that is itself deleted (a subtask of one
            // of these) goes with its cascade.
            try touchParents(tasks.map(\.parentID), except: Set(ids), in: context)
            for read in reads {
                context.delete(read.model, expectedRevision: ids.count == 1 && expectedRevision != nil ? read.guarding(expectedRevision) : nil)
            }
            let what = tasks.count == 1 ? "“\(tasks[0].title)”" : "\(tasks.count) tasks"
            return try save(context, undoLabel: "Delete \(what)")?.changes(of: TaskItem.self).deleted.count ?? 0
        }
    }

    /// Moves a task before another in its list's manual order (nil: to the end).
    ///
    /// Writes only the order: a change to the task that lands between this read and the
    /// save is kept (the move is tried again on top of it). When the gap is too small to
    /// split, the list's tasks are renumbered in the same change.
    public func moveTask(_ id: UUID, before otherID: UUID?) throws {
        try retryingConflicts {
            let read = try self.task(id: id)
            var task = read.model
            if let otherID {
                guard otherID != id else { throw SlateError.invalid(field: "before", message: "A task cannot be moved before itself.") }
                let other = try self.task(id: otherID).model
                guard other.listID == task.listID else {
                    throw SlateError.invalid(field: "before", message: "Both tasks must be in the same list to reorder them.")
                }
            }
            let siblings = try revisionedTasks(TaskQuery(scope: task.listID.map(TaskQuery.Scope.list) ?? .inbox, sort: .manual))
                .filter { $0.model.id != id }
            let placement = try Ordering.placement(before: otherID, in: siblings.map { ($0.model.id, $0.model.order) }, what: "task")
            task.order = placement.position
            task.modified = now
            let context = makeContext()
            context.update(task, expectedRevision: read.revision)
            for sibling in siblings {
                guard let position = placement.renumbered[sibling.model.id] else { continue }
                var renumbered = sibling.model
                renumbered.order = position
                context.update(renumbered, expectedRevision: sibling.revision)
            }
            try save(context, undoLabel: "Move “\(task.title)”")
        }
    }

    /// Runs `attempt` again (a few times at most) when a write that lands between its read
    /// and its save makes it conflict, as if the two had come one after the other: each
    /// attempt re-reads and re-applies only what it changes. A conflict with a revision the
    /// caller gave (`If-Match`) is the caller's and is not retried.
    func retryingConflicts<T>(unless expectedRevision: Int? = nil, _ attempt: () throws -> T) throws -> T {
        var attempts = 0
        while true {
            do {
                return try attempt()
            } catch SlateError.conflict where expectedRevision == nil && attempts < 8 {
                attempts += 1
            }
        }
    }

    /// Deletes every completed task, of one list or everywhere, as one change.
    /// Returns how many were deleted.
    @discardableResult
    public func clearCompleted(in listID: UUID? = nil) throws -> Int {
        let accountID = self.accountID
        var query = TaskQuery(status: .completed)
        if let listID {
            _ = try list(id: listID)
            query.scope = .list(listID)
        }
        let count = try self.count(query)
        guard count > 0 else { return 0 }
        let context = makeContext()
        // Parents that stay lose completed subtasks: their counts change.
        let cleared = try tasks(query)
        try touchParents(cleared.map(\.parentID), except: Set(cleared.map(\.id)), in: context)
        if let listID {
            try context.delete(model: TaskItem.self, where: #Predicate { $0.accountID == accountID && $0.isCompleted && $0.listID == listID })
        } else {
            try context.delete(model: TaskItem.self, where: #Predicate { $0.accountID == accountID && $0.isCompleted })
        }
        try save(context, undoLabel: "Clear \(count) completed")
        return count
    }

    // MARK: Undo

    /// Reverts the last change; returns what it was ("Complete “Buy milk”"), or nil when
    /// there is nothing to undo.
    @discardableResult
    public func undo() throws -> String? {
        try translatingErrors {
            let undone = try makeContext().undo(in: accountID)
            remember(undone?.commit)
            return undone.map { $0.label ?? "the last change" }
        }
    }

    /// Reverts the change made at revision `change` (`lastChange` of the write that made
    /// it), even when other changes came after it. Returns what it was.
    ///
    /// Refuses with `SlateError.cannotUndo` when that change is not in this account's
    /// history (already undone, never recorded, too old) or when a later change touched
    /// the same tasks or lists; nothing is written then.
    @discardableResult
    public func undo(change: Int) throws -> String {
        do {
            let undone = try makeContext().undo(revision: change, in: accountID)
            guard let undone else {
                throw SlateError.cannotUndo("Change \(change) cannot be undone: it is not in this account's history (already undone, or too old).")
            }
            remember(undone.commit)
            return undone.label ?? "the change"
        } catch let error as StoreError {
            if case .conflict = error {
                throw SlateError.cannotUndo("Change \(change) cannot be undone: a later change edited the same tasks or lists. Undo that one first, or edit them by hand.")
            }
            return try translatingErrors { throw error }
        }
    }

    /// Re-applies the last undone change; returns what it was, or nil.
    @discardableResult
    public func redo() throws -> String? {
        try translatingErrors {
            let redone = try makeContext().redo(in: accountID)
            remember(redone?.commit)
            return redone.map { $0.label ?? "the last change" }
        }
    }
}

import Foundation
import SlateStore

/// What storing a calendar object did.
public struct CalendarStoreResult: Sendable {
    public let object: CalendarObject
    /// True when the resource is new (201), false when it replaced one (204).
    public let created: Bool
    /// True when a GET returns exactly the bytes sent; false when Slate serves them changed
    /// (an override of an occurrence deleted in Slate is left out): then no ETag is sent
    /// with the reply (RFC 4791 §5.3.4) and the client reads the resource again.
    public var isServedAsSent = true
}

extension Slate {
    /// Stores a client's calendar object as `name` in `collection`: the bytes as sent, and
    /// the task they describe (created, updated, or moved here from another list when its
    /// UID lives there). One change: the task and the bytes are saved together.
    ///
    /// - Parameters:
    ///   - mustCreate: `If-None-Match: *`: refuse when the resource exists.
    ///   - expectedRevision: `If-Match`: refuse unless the resource exists at this revision
    ///     (or differs from it only by touches: `SameFields`).
    ///   - history: how many changes back sync tokens reach (see `CalendarLimits.syncHistory`).
    public func storeCalendarObject(_ data: Data, named name: String, in collection: CalendarCollectionID,
                                    mustCreate: Bool = false, expectedRevision: Int? = nil,
                                    history: Int = CalendarLimits.syncHistory) throws -> CalendarStoreResult {
        try storeCalendarObject(CalendarUpload(data, calendar: calendar), named: name, in: collection, mustCreate: mustCreate,
                                expectedRevision: expectedRevision, history: history)
    }

    /// `storeCalendarObject(_:named:in:mustCreate:expectedRevision:history:)` of bytes read
    /// before the write (`CalendarUpload`, read with this board's calendar).
    public func storeCalendarObject(_ upload: CalendarUpload, named name: String, in collection: CalendarCollectionID,
                                    mustCreate: Bool = false, expectedRevision: Int? = nil,
                                    history: Int = CalendarLimits.syncHistory) throws -> CalendarStoreResult {
        guard Self.isValidSegment(name) else {
            throw CalendarObjectError.forbidden("A resource name is 1 to \(CalendarLimits.maximumNameLength) bytes without '/'; got '\(name.prefix(80))'.")
        }
        let content = try upload.content.get()
        let data = upload.data
        let context = makeContext()
        let existing = try calendarObject(named: name, in: collection)
        if mustCreate, existing != nil { throw CalendarObjectError.preconditionFailed("The resource exists already (If-None-Match: *).") }
        if let expectedRevision, existing?.accepts(expectedRevision) != true {
            throw CalendarObjectError.preconditionFailed(existing == nil ? "The resource does not exist (If-Match)."
                : "The resource changed since revision \(expectedRevision) (it is at \(existing!.revision)).")
        }
        var target: Revisioned<TaskItem>?
        if let existing {
            let uid = existing.stored?.uid ?? existing.task.id.uuidString
            guard uid == content.uid else {
                throw CalendarObjectError.uidConflict(collection: try collectionName(collection), name: name)
            }
            target = try context.revisioned(TaskItem.self, id: existing.task.id)
        } else if let other = try task(forUID: content.uid, in: context) {
            guard other.model.listID != collection.listID else {
                let otherName = try context.model(CalendarResource.self, id: other.model.id)?.name ?? Self.defaultName(other.model.id)
                throw CalendarObjectError.uidConflict(collection: try collectionName(collection), name: otherName)
            }
            target = other   // the same task, moved to this list by its client
        }

        if let target, isCompletionMove(from: target.model, to: content) {
            try keepCompletedCopy(of: target.model, in: context)
        } else if target == nil {
            try replaceKeptCopy(with: content, in: collection.listID, context: context)
        }
        var task: TaskItem
        if let target {
            task = target.model
        } else {
            task = TaskItem(id: try newTaskID(for: content.uid, in: context), accountID: accountID, title: content.title, created: now)
        }
        task.title = content.title
        task.notes = content.notes
        task.priority = content.priority
        let dueBefore = task.due
        setDue(content.due.map { DueDate(date: $0, isAllDay: content.isAllDay) }, on: &task)
        if content.isCompleted != task.isCompleted || content.completedAt != nil {
            task.completedAt = content.isCompleted ? (content.completedAt.map(Timestamp.truncatedToMilliseconds) ?? task.completedAt ?? now) : nil
        }
        task.isCompleted = content.isCompleted
        task.tags = content.tags
        // The rule's day (BYMONTHDAY) is kept when a short month cut the due date from it;
        // without one, the same repeat on the same date keeps the day Slate remembered.
        let repeats = content.recurrence?.settled(dueOn: task.dueMonthDay(in: calendar))
        if repeats?.isSameRule(as: task.recurrence) != true || task.due != dueBefore || repeats?.dayOfMonth != nil {
            task.recurrence = repeats
        }
        task.alerts = content.alerts
        if let isFlagged = content.isFlagged { task.isFlagged = isFlagged }
        if task.listID != collection.listID || target == nil {
            task.listID = collection.listID
            task.order = try content.order ?? nextCalendarOrder(in: collection.listID, context: context)
        } else if let order = content.order {
            task.order = order
        }
        if let parentUID = content.parentUID, let parent = try self.task(forUID: parentUID, in: context), parent.model.id != task.id {
            // The same depth limit and cycle check as every other surface.
            do {
                try checkParent(parent.model.id, for: target == nil ? nil : task.id, field: "RELATED-TO")
            } catch let error as SlateError {
                throw CalendarObjectError.forbidden("RELATED-TO: \(error.description)")
            }
            task.parentID = parent.model.id
        } else {
            task.parentID = nil
        }
        let (isServedAsSent, occurrencesMoveParentCount) = try applyOverrides(content, to: &task, isNew: target == nil, in: context)
        task.due = task.due.map(Timestamp.truncatedToMilliseconds)
        task.modified = now

        if let target {
            context.update(task, expectedRevision: target.revision)
        } else {
            context.insert(task)
        }
        // A parent's subtask count moves with a subtask added, moved, completed or reopened,
        // as on every other surface: the parent is part of this change.
        // So does an occurrence's (each is a subtask of the series' parent).
        if task.parentID != target?.model.parentID || (target != nil && task.isCompleted != target?.model.isCompleted)
            || occurrencesMoveParentCount {
            try touchParents([target?.model.parentID, task.parentID], except: [task.id], in: context)
        }
        // Rows of deleted tasks that had this name give way; so does this task's old row.
        let accountID = self.accountID
        let taskID = task.id
        for row in try context.fetch(FetchDescriptor<CalendarResource>().matching(\.accountID, is: accountID).matching(\.name, is: name))
        where row.id != taskID {
            if try context.model(TaskItem.self, id: row.id) == nil {
                context.delete(row)
                if try context.model(CalendarResourceBody.self, id: row.id) != nil { context.delete(CalendarResourceBody.self, id: row.id) }
            }
        }
        context.upsert(CalendarResource(id: task.id, accountID: accountID, name: name, uid: content.uid, parentUID: content.parentUID))
        context.upsert(CalendarResourceBody(id: task.id, accountID: accountID, data: data, basis: task))
        try adoptWaitingChildren(of: task, uid: content.uid, in: context)
        try pruneRemovedNames(in: context, history: history)
        do {
            try translatingErrors { try context.save(undoLabel: "Sync “\(task.title)”") }
        } catch SlateError.conflict {
            throw CalendarObjectError.preconditionFailed("The resource changed while it was being stored; read it again.")
        }
        guard let object = try calendarObject(named: name, in: collection) else { throw CalendarObjectError.notFound("resource \(name)") }
        return CalendarStoreResult(object: object, created: existing == nil, isServedAsSent: isServedAsSent)
    }

    /// Links the subtasks a client stored before their parent (their RELATED-TO named this
    /// UID): their stored bytes already say so, so their basis moves with them.
    private func adoptWaitingChildren(of parent: TaskItem, uid: String, in context: ModelContext) throws {
        let accountID = self.accountID
        let waiting = try context.fetch(FetchDescriptor<CalendarResource>()
            .matching(\.accountID, is: accountID).matching(\.parentUID, is: uid))
        for row in waiting where row.id != parent.id {
            guard let child = try context.revisioned(TaskItem.self, id: row.id), child.model.accountID == accountID,
                  child.model.parentID == nil, try canAdopt(child.model.id, under: parent) else { continue }
            var adopted = child.model
            adopted.parentID = parent.id
            context.update(adopted, expectedRevision: child.revision)
            if var body = try context.model(CalendarResourceBody.self, id: row.id), body.basis.parentID == nil {
                body.basis.parentID = parent.id
                context.update(body)
            }
        }
    }

    /// True when `child` (with its subtasks) may go under `parent`, which is being stored
    /// (its parent is set, it may not be saved yet): no cycle and within the depth limit.
    /// A child that may not stays where it is, as when its parent is unknown.
    private func canAdopt(_ child: UUID, under parent: TaskItem) throws -> Bool {
        do {
            let parentLevel = try parent.parentID.map { try level(ofTask: $0, below: child, field: "RELATED-TO") + 1 } ?? 1
            guard parentLevel < TaskRules.maximumSubtaskDepth else { return false }
            try checkSubtasks(of: child, at: parentLevel + 1, notContaining: parent.id, field: "RELATED-TO")
            return true
        } catch is SlateError {
            return false
        }
    }

    /// The segment of a collection, for messages.
    func collectionName(_ id: CalendarCollectionID) throws -> String {
        try calendarCollections().first { $0.id == id }?.name ?? Self.inboxCollectionName
    }

    /// A new task's id: worked out from the UID and this account when the UID is a UUID (as
    /// an import does, `ImportedID`), else new. Never the UID itself: whether that is free
    /// depends on every account's rows, so the id answered would tell one account whether
    /// another has a task with that id, and taking it would forget another account's
    /// deletion of it. The resource row keeps the UID.
    private func newTaskID(for uid: String, in context: ModelContext) throws -> UUID {
        if let basis = UUID(idText: uid) {
            let id = ImportedID.id(for: basis, account: accountID)
            if try context.model(TaskItem.self, id: id) == nil, try context.model(CalendarResource.self, id: id) == nil { return id }
        }
        return UUID()
    }

    /// After the last task of a list in the manual order.
    private func nextCalendarOrder(in listID: UUID?, context: ModelContext) throws -> Double {
        try highestOrder(in: listID, context: context) + 1
    }
}

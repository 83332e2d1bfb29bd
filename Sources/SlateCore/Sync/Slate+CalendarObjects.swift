import Foundation
import SlateStore

/// A task as a CalDAV calendar object resource.
public struct CalendarObject: Sendable {
    /// The resource's name in its collection (`<UID>.ics` unless a client chose another).
    public let name: String
    public let task: TaskItem
    /// The task's revision: the resource's entity tag.
    public let revision: Int
    /// What a client stored, if a client did.
    let stored: CalendarResource?

    /// The entity tag, quoted: strong, and new whenever the served bytes may differ.
    public var etag: String { "\"\(revision)\"" }
}

extension Slate {
    /// The objects of a collection, without their text.
    public func calendarObjects(in collection: CalendarCollectionID) throws -> [CalendarObject] {
        let tasks = try revisionedTasks(TaskQuery(scope: collection.listID.map(TaskQuery.Scope.list) ?? .inbox, sort: .manual))
        let rows = try calendarResources()
        return tasks.map { CalendarObject(name: rows[$0.model.id]?.name ?? Self.defaultName($0.model.id), task: $0.model, revision: $0.revision, stored: rows[$0.model.id]) }
    }

    /// The account's stored resources by task id.
    func calendarResources() throws -> [UUID: CalendarResource] {
        let accountID = self.accountID
        let rows = try makeContext().fetch(FetchDescriptor<CalendarResource>(predicate: #Predicate { $0.accountID == accountID }))
        return Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The name of a task's resource when no client chose one.
    static func defaultName(_ id: UUID) -> String { id.uuidString + ".ics" }

    /// The object named `name` in `collection`, or nil.
    public func calendarObject(named name: String, in collection: CalendarCollectionID) throws -> CalendarObject? {
        let accountID = self.accountID
        let context = makeContext()
        let rows = try context.fetch(FetchDescriptor<CalendarResource>(predicate: #Predicate { $0.accountID == accountID && $0.name == name }))
        for row in rows {
            if let found = try context.revisioned(TaskItem.self, id: row.id), found.model.accountID == accountID,
               found.model.listID == collection.listID {
                return CalendarObject(name: name, task: found.model, revision: found.revision, stored: row)
            }
        }
        guard name.hasSuffix(".ics"), let id = UUID(uuidString: String(name.dropLast(4))),
              let found = try context.revisioned(TaskItem.self, id: id), found.model.accountID == accountID,
              found.model.listID == collection.listID, try context.model(CalendarResource.self, id: id) == nil
        else { return nil }
        return CalendarObject(name: name, task: found.model, revision: found.revision, stored: nil)
    }

    /// The calendar object's bytes: what the client stored, with the fields Slate changed
    /// since rewritten (and nothing else).
    public func calendarData(of object: CalendarObject) throws -> Data {
        let parentUID = try object.task.parentID.map { try uid(ofTask: $0) }
        guard let stored = object.stored else {
            return Data(VTodoRendering.fresh(object.task, uid: object.task.id.uuidString, parentUID: parentUID, calendar: calendar).utf8)
        }
        guard let body = try makeContext().model(CalendarResourceBody.self, id: stored.id) else {
            return Data(VTodoRendering.fresh(object.task, uid: stored.uid, parentUID: parentUID, calendar: calendar).utf8)
        }
        return VTodoRendering.rewrite(body.data, basis: body.basis, task: object.task, parentUID: parentUID, calendar: calendar)
    }

    /// The calendar object as text, for XML answers: the bytes, with folds that split a
    /// UTF-8 character moved to a character boundary.
    public func calendarText(of object: CalendarObject) throws -> String {
        VTodoRendering.text(try calendarData(of: object))
    }

    /// The UID of a task's resource.
    func uid(ofTask id: UUID) throws -> String {
        try makeContext().model(CalendarResource.self, id: id)?.uid ?? id.uuidString
    }

    /// The live task of this account whose resource has `uid`, if any.
    func task(forUID uid: String, in context: ModelContext) throws -> Revisioned<TaskItem>? {
        let accountID = self.accountID
        for row in try context.fetch(FetchDescriptor<CalendarResource>(predicate: #Predicate { $0.accountID == accountID && $0.uid == uid })) {
            if let task = try context.revisioned(TaskItem.self, id: row.id), task.model.accountID == accountID { return task }
        }
        if let id = UUID(uuidString: uid), try context.model(CalendarResource.self, id: id) == nil,
           let task = try context.revisioned(TaskItem.self, id: id), task.model.accountID == accountID {
            return task
        }
        return nil
    }

    /// Deletes the object (and, as everywhere in Slate, its subtasks). With `ifMatch`,
    /// refuses unless the object's revision is that one.
    public func deleteCalendarObject(_ object: CalendarObject, ifMatch: Int? = nil, history: Int = CalendarLimits.syncHistory) throws {
        if let ifMatch, ifMatch != object.revision {
            throw CalendarObjectError.preconditionFailed("The resource changed since revision \(ifMatch) (it is at \(object.revision)).")
        }
        do {
            try deleteTasks([object.task.id], expectedRevision: object.revision)
        } catch SlateError.conflict {
            throw CalendarObjectError.preconditionFailed("The resource changed while it was being deleted.")
        }
        // The bytes go; the name stays for the next sync to report the resource gone.
        if object.stored != nil {
            let context = makeContext(undo: false)
            context.delete(CalendarResourceBody.self, id: object.task.id)
            try pruneRemovedNames(in: context, history: history)
            try translatingErrors { try context.save() }
        }
    }
}

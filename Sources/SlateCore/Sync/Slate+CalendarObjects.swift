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
    /// The occurrence rows of the series, when they were read to find the object (its
    /// revision depends on them): its bytes, made in the same snapshot, need not read them
    /// again. Nil: not read.
    var occurrences: [CalendarOccurrence]? = nil

    /// The entity tag, quoted: strong, and new whenever the served bytes may differ.
    public var etag: String { "\"\(revision)\"" }

    /// Whether an `If-Match` naming `expected` holds: this revision, or one the task's
    /// fields are unchanged since (`TaskItem.accepts(_:at:)`).
    func accepts(_ expected: Int) -> Bool { task.accepts(expected, at: revision) }
}

/// A collection's object as a listing of entity tags needs it: its name and revision, no
/// task (a PROPFIND of ETags reads ids and revisions, not every task of the collection).
public struct CalendarObjectTag: Sendable, Hashable {
    /// The resource's name in its collection, as `CalendarObject.name`.
    public let name: String
    /// The resource's revision, as `CalendarObject.revision`.
    public let revision: Int

    /// The entity tag, quoted, as `CalendarObject.etag`.
    public var etag: String { "\"\(revision)\"" }
}

extension Slate {
    /// The objects of a collection, without their text.
    public func calendarObjects(in collection: CalendarCollectionID) throws -> [CalendarObject] {
        let tasks = try revisionedTasks(listingQuery(collection))
        let stored = try calendarResources(of: tasks.map(\.model.id), in: makeContext())
        return try listing(tasks.map { ($0.model.id, $0.revision) }, stored: stored, name: \.name).map { entry in
            CalendarObject(name: entry.name, task: tasks[entry.index].model, revision: entry.revision, stored: entry.stored)
        }
    }

    /// The names and entity tags of a collection's objects: the same objects, in the same
    /// order and with the same ETags as `calendarObjects(in:)`, from the tasks' ids and
    /// revisions alone.
    public func calendarObjectTags(in collection: CalendarCollectionID) throws -> [CalendarObjectTag] {
        let tasks = try translatingErrors {
            try makeContext().fetchRevisions(listingQuery(collection).descriptor(accountID: accountID, now: now, calendar: calendar))
        }
        // Only the stored names: decoding whole resource rows was most of a PROPFIND.
        let names = try translatingErrors { try makeContext().values(\CalendarResource.name, ids: tasks.map(\.id), partition: accountID) }
        return try listing(tasks, stored: names, name: { $0 }).map { CalendarObjectTag(name: $0.name, revision: $0.revision) }
    }

    private func listingQuery(_ collection: CalendarCollectionID) -> TaskQuery {
        TaskQuery(scope: collection.listID.map(TaskQuery.Scope.list) ?? .inbox, sort: .manual)
    }

    /// Which of a collection's tasks (`tasks`, in the listing's order) are resources, with
    /// their names, revisions and what was read of their stored rows (`stored`, by task id:
    /// whole rows, or only names): an occurrence served inside its series' resource is left
    /// out, and a series' revision counts its occurrences'.
    private func listing<Stored>(_ tasks: [(id: UUID, revision: Int)], stored rows: [UUID: Stored], name: (Stored) -> String) throws
        -> [(index: Int, name: String, revision: Int, stored: Stored?)] {
        let context = makeContext()
        let series = try occurrencesBySeries(in: context)
        guard !series.isEmpty else {
            return tasks.enumerated().map { index, task in
                let stored = rows[task.id]
                return (index, stored.map(name) ?? Self.defaultName(task.id), task.revision, stored)
            }
        }
        let revisions = Dictionary(tasks.map { ($0.id, $0.revision) }, uniquingKeysWith: { first, _ in first })
        // Occurrences are served inside their series' resource while the series exists.
        let owned = Set(series.filter { revisions[$0.key] != nil || (try? context.model(TaskItem.self, id: $0.key)) != nil }
            .values.joined().map(\.id))
        return try tasks.enumerated().filter { !owned.contains($0.element.id) }.map { index, task in
            let revision = try seriesRevision(task.revision, series[task.id] ?? [], known: revisions, in: context)
            let stored = rows[task.id]
            return (index, stored.map(name) ?? Self.defaultName(task.id), revision, stored)
        }
    }

    /// A series' entity tag: the newest revision among its task and its occurrences' tasks,
    /// and the deletions of occurrences deleted in Slate (their overrides then leave the
    /// series' bytes), so that any change in Slate to what the series' bytes hold moves it.
    func seriesRevision(_ revision: Int, _ occurrences: [CalendarOccurrence], known: [UUID: Int] = [:], in context: ModelContext) throws -> Int {
        var newest = revision
        var gone: [CalendarOccurrence] = []
        for occurrence in occurrences {
            if let known = known[occurrence.id] {
                newest = max(newest, known)
            } else if let read = try context.revisioned(TaskItem.self, id: occurrence.id) {
                newest = max(newest, read.revision)
            } else {
                gone.append(occurrence)
            }
        }
        for deleted in try deletionRevisions(of: gone, in: context).values { newest = max(newest, deleted) }
        return newest
    }

    /// The revision at which each of these occurrences' tasks was deleted, by task id: read
    /// from the departures since the oldest of their rows was written (a row is written with
    /// its task, so before the deletion). A deletion without a departure (made before
    /// departures were recorded) counts as the account's current revision.
    func deletionRevisions(of occurrences: [CalendarOccurrence], in context: ModelContext) throws -> [UUID: Int] {
        guard !occurrences.isEmpty else { return [:] }
        var since = Int.max
        for occurrence in occurrences {
            since = min(since, try context.revisioned(CalendarOccurrence.self, id: occurrence.id)?.revision ?? 0)
        }
        let wanted = Set(occurrences.map(\.id))
        var deleted: [UUID: Int] = [:]
        for departure in try context.departures(of: TaskItem.self, since: max(since - 1, 0), partition: accountID)
        where wanted.contains(departure.id) {
            deleted[departure.id] = departure.revision
        }
        if deleted.count < wanted.count {
            let current = try revision()
            for id in wanted where deleted[id] == nil { deleted[id] = current }
        }
        return deleted
    }

    /// True when `id` is an occurrence served inside a series' resource that exists.
    func isServedInSeries(_ id: UUID, in context: ModelContext) throws -> Bool {
        guard let row = try context.model(CalendarOccurrence.self, id: id) else { return false }
        return try context.model(TaskItem.self, id: row.seriesID) != nil
    }

    /// The stored resources of these tasks by task id (by id, see `accountRows`: a listing
    /// reads its own collection's rows, not the whole account's).
    func calendarResources(of ids: [UUID], in context: ModelContext) throws -> [UUID: CalendarResource] {
        try accountRows(CalendarResource.self, ids: ids, account: \.accountID, in: context).mapValues(\.model)
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
        let rows = try context.fetch(FetchDescriptor<CalendarResource>().matching(\.accountID, is: accountID).matching(\.name, is: name))
        for row in rows {
            if let found = try context.revisioned(TaskItem.self, id: row.id), found.model.accountID == accountID,
               found.model.listID == collection.listID {
                let occurrences = try occurrences(ofSeries: row.id, in: context)
                let revision = try seriesRevision(found.revision, occurrences, in: context)
                return CalendarObject(name: name, task: found.model, revision: revision, stored: row, occurrences: occurrences)
            }
        }
        guard let id = Self.defaultNamedID(name),
              let found = try context.revisioned(TaskItem.self, id: id), found.model.accountID == accountID,
              found.model.listID == collection.listID, try context.model(CalendarResource.self, id: id) == nil,
              !(try isServedInSeries(id, in: context))
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
        guard let row = try makeContext().revisioned(CalendarResourceBody.self, id: stored.id) else {
            return Data(VTodoRendering.fresh(object.task, uid: stored.uid, parentUID: parentUID, calendar: calendar).utf8)
        }
        let body = row.model
        let data = body.isUnchanged(object.task) ? body.data
            : VTodoRendering.rewrite(body.data, basis: body.basis, task: object.task, parentUID: parentUID, calendar: calendar,
                                     changes: object.revision - row.revision)
        return try rewritingOccurrences(data, of: object.task.id, rows: object.occurrences)
    }

    /// The series' bytes with each occurrence changed in Slate since the client stored it
    /// rewritten in its override (only the changed lines). The override of an occurrence
    /// deleted in Slate is removed, whole.
    /// `rows`: the series' occurrence rows when they were read in this snapshot already.
    func rewritingOccurrences(_ data: Data, of seriesID: UUID, rows: [CalendarOccurrence]? = nil) throws -> Data {
        if rows?.isEmpty == true { return data }
        let context = makeContext()
        var data = data
        for row in try rows ?? occurrences(ofSeries: seriesID, in: context) {
            guard let task = try context.model(TaskItem.self, id: row.id) else {
                data = VTodoRendering.removingOverride(data, key: row.recurrenceKey, calendar: calendar)
                continue
            }
            data = VTodoRendering.rewrite(data, basis: row.basis, task: task, parentUID: nil, calendar: calendar,
                                          occurrence: row.recurrenceKey)
        }
        return data
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
        for row in try context.fetch(FetchDescriptor<CalendarResource>().matching(\.accountID, is: accountID).matching(\.uid, is: uid)) {
            if let task = try context.revisioned(TaskItem.self, id: row.id), task.model.accountID == accountID { return task }
        }
        if let id = UUID(idText: uid), try context.model(CalendarResource.self, id: id) == nil,
           let task = try context.revisioned(TaskItem.self, id: id), task.model.accountID == accountID {
            return task
        }
        return nil
    }

    /// Deletes the object (and, as everywhere in Slate, its subtasks). With `ifMatch`,
    /// refuses unless the object's revision is that one (or differs from it only by touches).
    public func deleteCalendarObject(_ object: CalendarObject, ifMatch: Int? = nil, history: Int = CalendarLimits.syncHistory) throws {
        if let ifMatch, !object.accepts(ifMatch) {
            throw CalendarObjectError.preconditionFailed("The resource changed since revision \(ifMatch) (it is at \(object.revision)).")
        }
        // A series goes with the occurrences its resource holds (as the client deletes them).
        let context = makeContext()
        let occurrences = try occurrences(ofSeries: object.task.id, in: context)
        let owned = try occurrences.filter { try context.model(TaskItem.self, id: $0.id) != nil }.map(\.id)
        do {
            try deleteTasks([object.task.id] + owned, expectedRevision: owned.isEmpty ? object.revision : nil)
        } catch SlateError.conflict {
            throw CalendarObjectError.preconditionFailed("The resource changed while it was being deleted.")
        }
        // The bytes go; the name stays for the next sync to report the resource gone.
        if object.stored != nil {
            let context = makeContext(undo: false)
            context.delete(CalendarResourceBody.self, id: object.task.id)
            for occurrence in occurrences { context.delete(CalendarOccurrence.self, id: occurrence.id) }
            try pruneRemovedNames(in: context, history: history)
            try translatingErrors { try context.save() }
        }
    }
}

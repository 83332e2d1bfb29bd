import Foundation
import SlateStore

extension Slate {
    /// The bytes of many objects at once (a calendar-query with data, a multiget, a sync):
    /// their stored bodies, parents' UIDs and occurrences are read in a few queries instead
    /// of a few per object. The result is in the order of `objects`.
    public func calendarData(of objects: [CalendarObject]) throws -> [Data] {
        guard objects.count > 1 else { return try objects.map(calendarData(of:)) }
        let context = makeContext()
        let bodies = try accountRows(CalendarResourceBody.self, ids: objects.compactMap { $0.stored?.id }, account: \.accountID, in: context)
        let parents = Set(objects.compactMap(\.task.parentID))
        let resources = parents.isEmpty ? [:] : try calendarResources()
        let series = try occurrencesBySeries(in: context)
        return try objects.map { object in
            let parentUID = object.task.parentID.map { resources[$0]?.uid ?? $0.uuidString }
            guard let row = object.stored else {
                return Data(VTodoRendering.fresh(object.task, uid: object.task.id.uuidString, parentUID: parentUID, calendar: calendar).utf8)
            }
            guard let stored = bodies[row.id] else {
                return Data(VTodoRendering.fresh(object.task, uid: row.uid, parentUID: parentUID, calendar: calendar).utf8)
            }
            let body = stored.model
            let data = body.isUnchanged(object.task) ? body.data
            : VTodoRendering.rewrite(body.data, basis: body.basis, task: object.task, parentUID: parentUID, calendar: calendar,
                                     changes: object.revision - stored.revision)
            guard series[object.task.id] != nil else { return data }
            return try rewritingOccurrences(data, of: object.task.id)
        }
    }

    /// Calendar bytes as XML-ready text: folds that split a UTF-8 character moved to a
    /// character boundary (see `calendarText(of:)`).
    public static func calendarText(_ data: Data) -> String { VTodoRendering.text(data) }
}

extension Slate {
    /// The objects named `names` in `collection` (a multiget), in the order asked; nil for a
    /// name that is not there. A few queries for all of them, not a few per name.
    public func calendarObjects(named names: [String], in collection: CalendarCollectionID) throws -> [CalendarObject?] {
        guard names.count > 1 else { return try names.map { try calendarObject(named: $0, in: collection) } }
        let context = makeContext()
        let accountID = self.accountID
        var rowsByName: [String: [CalendarResource]] = [:]
        var wanted = Set(names)
        for start in stride(from: 0, to: names.count, by: 500) {
            let chunk = Array(names[start..<min(start + 500, names.count)])
            for row in try context.fetch(FetchDescriptor<CalendarResource>().matching(\.accountID, is: accountID).matching(\.name, isIn: chunk)) {
                rowsByName[row.name, default: []].append(row)
            }
        }
        // Candidate tasks: those the rows name, and those named by default (`<id>.ics`).
        var ids = Set(rowsByName.values.joined().map(\.id))
        for name in wanted where rowsByName[name] == nil {
            if let id = Self.defaultNamedID(name) { ids.insert(id) }
        }
        wanted.removeAll()
        let tasks = try accountRows(TaskItem.self, ids: Array(ids), account: \.accountID, in: context)
        let series = try occurrencesBySeries(in: context)
        let owned = Set(series.values.joined().map(\.id))
        func object(_ name: String) throws -> CalendarObject? {
            for row in rowsByName[name] ?? [] {
                if let found = tasks[row.id], found.model.listID == collection.listID {
                    let revision = try seriesRevision(found.revision, series[row.id] ?? [], in: context)
                    return CalendarObject(name: name, task: found.model, revision: revision, stored: row)
                }
            }
            guard let id = Self.defaultNamedID(name), let found = tasks[id],
                  found.model.listID == collection.listID, try context.model(CalendarResource.self, id: id) == nil,
                  !(owned.contains(id) ? try isServedInSeries(id, in: context) : false)
            else { return nil }
            return CalendarObject(name: name, task: found.model, revision: found.revision, stored: nil)
        }
        return try names.map(object)
    }

    /// The names and entity tags of the objects named `names` in `collection`, in the order
    /// asked, nil for a name that is not there: the same objects and ETags as
    /// `calendarObjects(named:in:)`, from the resources' names and the tasks' lists and
    /// revisions alone (a multiget whose answers are kept by ETag reads whole objects only
    /// for those that are not).
    public func calendarObjectTags(named names: [String], in collection: CalendarCollectionID) throws -> [CalendarObjectTag?] {
        let context = makeContext()
        let accountID = self.accountID
        return try translatingErrors {
            var idsByName: [String: [UUID]] = [:]
            for start in stride(from: 0, to: names.count, by: 500) {
                let chunk = Array(names[start..<min(start + 500, names.count)])
                let descriptor = FetchDescriptor<CalendarResource>().matching(\.accountID, is: accountID)
                    .matching(\.name, isIn: chunk)
                for row in try context.values(\CalendarResource.name, matching: descriptor) {
                    idsByName[row.value, default: []].append(row.id)
                }
            }
            // Candidate tasks: those the rows name, and those named by default (`<id>.ics`).
            var ids = Set(idsByName.values.joined())
            var unnamed: [UUID] = []
            for name in Set(names) where idsByName[name] == nil {
                if let id = Self.defaultNamedID(name) {
                    ids.insert(id)
                    unnamed.append(id)
                }
            }
            let tasks = try context.revisionedValues(\TaskItem.listID, ids: Array(ids), partition: accountID)
            // A task stored under a name of its own is not also served by default.
            let storedUnder = try context.values(\CalendarResource.name, ids: unnamed, partition: accountID)
            let series = try occurrencesBySeries(in: context)
            let owned = Set(series.values.joined().map(\.id))
            func tag(_ name: String) throws -> CalendarObjectTag? {
                for id in idsByName[name] ?? [] {
                    if let found = tasks[id], found.value == collection.listID {
                        return CalendarObjectTag(name: name, revision: try seriesRevision(found.revision, series[id] ?? [], in: context))
                    }
                }
                guard let id = Self.defaultNamedID(name), let found = tasks[id], found.value == collection.listID, storedUnder[id] == nil,
                      !(owned.contains(id) ? try isServedInSeries(id, in: context) : false)
                else { return nil }
                return CalendarObjectTag(name: name, revision: found.revision)
            }
            return try names.map(tag)
        }
    }

    /// The task a default resource name (`<id>.ics`) names.
    static func defaultNamedID(_ name: String) -> UUID? {
        name.hasSuffix(".ics") ? UUID(idText: name.dropLast(4)) : nil
    }
}

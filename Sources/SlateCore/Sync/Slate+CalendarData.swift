import Foundation
import SlateStore

extension Slate {
    /// The bytes of many objects at once (a calendar-query with data, a multiget, a sync):
    /// their stored bodies, parents' UIDs and occurrences are read in a few queries instead
    /// of a few per object. The result is in the order of `objects`.
    public func calendarData(of objects: [CalendarObject]) throws -> [Data] {
        guard objects.count > 1 else { return try objects.map(calendarData(of:)) }
        let context = makeContext()
        let accountID = self.accountID
        let stored = objects.compactMap { $0.stored?.id }
        var bodies: [UUID: CalendarResourceBody] = [:]
        for start in stride(from: 0, to: stored.count, by: 500) {
            let chunk = Array(stored[start..<min(start + 500, stored.count)])
            for body in try context.fetch(FetchDescriptor<CalendarResourceBody>(
                predicate: #Predicate { $0.accountID == accountID && chunk.contains($0.id) })) {
                bodies[body.id] = body
            }
        }
        let parents = Set(objects.compactMap(\.task.parentID))
        let resources = parents.isEmpty ? [:] : try calendarResources()
        let series = try occurrencesBySeries(in: context)
        return try objects.map { object in
            let parentUID = object.task.parentID.map { resources[$0]?.uid ?? $0.uuidString }
            guard let row = object.stored else {
                return Data(VTodoRendering.fresh(object.task, uid: object.task.id.uuidString, parentUID: parentUID, calendar: calendar).utf8)
            }
            guard let body = bodies[row.id] else {
                return Data(VTodoRendering.fresh(object.task, uid: row.uid, parentUID: parentUID, calendar: calendar).utf8)
            }
            let data = VTodoRendering.rewrite(body.data, basis: body.basis, task: object.task, parentUID: parentUID, calendar: calendar)
            guard series[object.task.id] != nil else { return data }
            return try rewritingOccurrences(data, of: object.task.id)
        }
    }

    /// Calendar bytes as XML-ready text: folds that split a UTF-8 character moved to a
    /// character boundary (see `calendarText(of:)`).
    public static func calendarText(_ data: Data) -> String { VTodoRendering.text(data) }
}

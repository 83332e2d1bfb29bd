import Foundation
import SlateStore

/// Tasks are fetched by the page: read column by column rather than through `Decodable`
/// (the same values; RowReadingTests compares the two).
extension TaskItem: RowReadable {
    /// Where each column is in `schema.columns`, looked up once.
    private struct Positions {
        let id, number, title, notes, isCompleted, completedAt, created, modified, due, isAllDay, dueDay: Int32
        let priority, isFlagged, order, tags, recurrence, accountID, listID, parentID, alerts, sameFields: Int32

        init(_ schema: ModelSchema<TaskItem>) {
            func at(_ name: String) -> Int32 { StoredRow.position(of: name, in: schema) }
            (id, number, title, notes, isCompleted) = (at("id"), at("number"), at("title"), at("notes"), at("isCompleted"))
            (completedAt, created, modified, due, isAllDay) = (at("completedAt"), at("created"), at("modified"), at("due"), at("isAllDay"))
            (priority, isFlagged, order, tags, recurrence) = (at("priority"), at("isFlagged"), at("order"), at("tags"), at("recurrence"))
            (accountID, listID, parentID) = (at("accountID"), at("listID"), at("parentID"))
            (alerts, sameFields, dueDay) = (at("alerts"), at("sameFields"), at("dueDay"))
        }
    }

    private static let positions = Positions(schema)

    public init(row: StoredRow) throws {
        let at = Self.positions
        self.init(
            id: try row.uuid(at.id), number: try row.int(at.number), accountID: try row.uuid(at.accountID),
            title: try row.string(at.title), notes: try row.string(at.notes), isCompleted: try row.bool(at.isCompleted),
            completedAt: row.optionalDate(at.completedAt), created: try row.date(at.created), modified: try row.date(at.modified),
            due: row.optionalDate(at.due), isAllDay: try row.bool(at.isAllDay),
            dueDay: row.isNull(at.dueDay) ? nil : try row.int(at.dueDay), priority: try row.value(at.priority),
            isFlagged: try row.bool(at.isFlagged), listID: try row.optionalUUID(at.listID), parentID: try row.optionalUUID(at.parentID),
            order: try row.double(at.order), tags: try row.strings(at.tags), recurrence: try row.optionalValue(at.recurrence),
            alerts: try row.strings(at.alerts).map { try TaskAlert(parsing: $0) })
        sameFields = try row.value(at.sameFields)
    }
}

/// Tasks are saved in bulk by an import: their column values written out here rather than
/// read through the schema's key paths (the same values; RowWritingTests compares the two).
extension TaskItem: RowWritable {
    public var rowValues: [DatabaseValue] {
        // `schema.columns` order: id, the columns as Schema.swift declares them, the references.
        [id.databaseValue, number.databaseValue, title.databaseValue, notes.databaseValue, isCompleted.databaseValue,
         completedAt.databaseValue, created.databaseValue, modified.databaseValue, due.databaseValue,
         isAllDay.databaseValue, dueDay.databaseValue, priority.databaseValue, isFlagged.databaseValue, order.databaseValue, .json(tags),
         recurrence.databaseValue, titleSortKey.databaseValue, .json(alerts), sameFields.databaseValue,
         accountID.databaseValue, listID.databaseValue, parentID.databaseValue]
    }
}

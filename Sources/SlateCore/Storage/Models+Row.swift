import Foundation
import SlateStore

// Accounts and lists are read on every command (the local account when the board opens, the
// lists to show their names beside tasks): column by column, like tasks (TaskItem+Row.swift),
// rather than through `Decodable`. RowReadingTests compares the two.

extension Account: RowReadable {
    private static let positions = (
        id: StoredRow.position(of: "id", in: schema), name: StoredRow.position(of: "name", in: schema),
        created: StoredRow.position(of: "created", in: schema), timeZone: StoredRow.position(of: "timeZone", in: schema))

    public init(row: StoredRow) throws {
        let at = Self.positions
        self.init(id: try row.uuid(at.id), name: try row.string(at.name), created: try row.date(at.created),
                  timeZone: row.isNull(at.timeZone) ? nil : try row.string(at.timeZone))
    }
}

extension TaskList: RowReadable {
    private static let positions = (
        id: StoredRow.position(of: "id", in: schema), accountID: StoredRow.position(of: "accountID", in: schema),
        name: StoredRow.position(of: "name", in: schema), color: StoredRow.position(of: "color", in: schema),
        icon: StoredRow.position(of: "icon", in: schema), order: StoredRow.position(of: "order", in: schema),
        created: StoredRow.position(of: "created", in: schema))

    public init(row: StoredRow) throws {
        let at = Self.positions
        self.init(id: try row.uuid(at.id), accountID: try row.uuid(at.accountID), name: try row.string(at.name),
                  color: try row.string(at.color), icon: try row.string(at.icon), order: try row.double(at.order),
                  created: try row.date(at.created))
    }
}

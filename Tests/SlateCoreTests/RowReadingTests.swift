import Foundation
import TestDatabases
import Testing

@testable import SlateCore
@testable import SlateStore

/// Tasks read column by column (`RowReadable`) equal tasks decoded through `Decodable`.
@Suite struct RowReadingTests {
    @Test func tasksReadByColumnEqualTasksDecoded() throws {
        let container = try Slate.openContainer(path: TestDatabase.freshStore())
        let account = try Slate.ensureAccount(named: "ana", in: container, now: Date(timeIntervalSince1970: 1_795_943_700))
        let slate = Slate(container: container, accountID: account.id, calendar: Calendar(identifier: .gregorian))
        let list = try slate.createList(name: "Errands")
        let parent = try slate.addTask(TaskDraft(title: "Parent"))
        var drafts = [
            TaskDraft(title: "Plain"),
            TaskDraft(title: "Everything \"quoted\" é", notes: "line\nline", listID: list.id, priority: .critical,
                      due: DueDate(date: Date(timeIntervalSince1970: 1_800_000_000.123), isAllDay: false), isFlagged: true,
                      tags: ["home", "çà", "a\\b"], recurrence: Recurrence(.weekly, interval: 2), parentID: parent.id, alerts: [TaskAlert(.beforeDue(seconds: 900))]),
            TaskDraft(title: "All day", due: DueDate(date: Date(timeIntervalSince1970: 1_795_910_400), isAllDay: true), tags: []),
        ]
        drafts[0].priority = .low
        for draft in drafts { try slate.addTask(draft) }
        _ = try slate.setCompleted([parent.id], true)

        let read = try ModelContext(container).fetch(FetchDescriptor<TaskItem>(sortKeys: [.ascending(\.created)]))
        let sql = "SELECT \(ModelContext.selectColumns(TaskItem.self)) FROM \"tasks\" AS t"
        let decoded: [TaskItem] = try container.pool.read { database in
            var tasks: [TaskItem] = []
            var layout: ColumnLayout?
            try database.forEachRow(sql, []) { statement in
                let columns = layout ?? ColumnLayout(statement)
                layout = columns
                tasks.append(try RowDecoder.decode(TaskItem.self, from: statement, columns: columns))
            }
            return tasks
        }
        #expect(read.count == drafts.count + 1)
        #expect(Set(read) == Set(decoded))
    }

    @Test func accountsAndListsReadByColumnEqualThemDecoded() throws {
        let container = try Slate.openContainer(path: nil)
        let now = Date(timeIntervalSince1970: 1_795_943_700.25)
        let ana = try Slate.ensureAccount(named: "ana", in: container, now: now)
        let directory = AccountDirectory(container: container)
        _ = try directory.setTimeZone("Europe/Paris", for: ana.id)
        _ = try Slate.ensureAccount(named: "ben", in: container, now: now)
        let slate = Slate(container: container, accountID: ana.id, calendar: Calendar(identifier: .gregorian))
        try slate.createList(name: "Errands ü", color: "#FF6B6B", icon: "cart")
        try slate.createList(name: "Home")
        #expect(try decoded(Account.self, container).sorted { $0.name < $1.name }
            == (try ModelContext(container).fetch(FetchDescriptor<Account>())).sorted { $0.name < $1.name })
        #expect(Set(try decoded(TaskList.self, container)) == Set(try ModelContext(container).fetch(FetchDescriptor<TaskList>())))
    }

    @Test func theModelsReadThemselvesWithoutACast() {
        // `rowReader` is `RowReadable`'s, not `PersistentModel`'s default (nil: decoded).
        #expect(TaskItem.rowReader != nil)
        #expect(TaskList.rowReader != nil)
        #expect(Account.rowReader != nil)
        #expect(Credential.rowReader == nil)
    }

    /// Every row of `Model` decoded through `Decodable`.
    private func decoded<Model: PersistentModel>(_ type: Model.Type, _ container: ModelContainer) throws -> [Model] {
        let sql = "SELECT \(ModelContext.selectColumns(Model.self)) FROM \(Model.schema.tableName) AS t"
        return try container.pool.read { database in
            var models: [Model] = []
            var layout: ColumnLayout?
            try database.forEachRow(sql, []) { statement in
                let columns = layout ?? ColumnLayout(statement)
                layout = columns
                models.append(try RowDecoder.decode(Model.self, from: statement, columns: columns))
            }
            return models
        }
    }
}

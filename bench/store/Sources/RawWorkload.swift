import CSQLite
import Foundation

/// The hand-written side: the same work as `StoreWorkload`, on the sqlite3 C API, in
/// tables that a `ModelContainer` created (hidden `_pk` and `_rev` columns, the FTS5
/// external-content table, the same indexes).
///
/// It is written the way a careful engineer would write it by hand: statements
/// prepared once and reused, every parameter bound with `sqlite3_bind_*`, one
/// transaction for the bulk insert, columns read by position straight into the
/// same Swift structs SlateStore returns.
enum RawWorkload {
    /// The task columns in the order the queries read them.
    static let taskColumns = [
        "id", "number", "title", "notes", "isCompleted", "completedAt", "created", "modified", "due", "priority",
        "isFlagged", "sortOrder", "listID",
    ]

    /// Inserts every list and task in one transaction. Like a SlateStore save, it
    /// takes the next store revision and stamps every row with it in `_rev`, and adds the
    /// new rows' text to the full-text index at the end, in one statement (the faster way:
    /// a trigger per row makes FTS5 write a segment per row).
    static func insert(_ dataset: Dataset, into connection: RawConnection) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let revision = try nextRevision(connection)
            try insertLists(dataset.lists, revision: revision, into: connection)
            let rowids = try insertTasks(dataset.tasks, revision: revision, into: connection)
            try indexText(of: rowids, in: connection)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private static func nextRevision(_ connection: RawConnection) throws -> Int64 {
        let statement = try connection.prepare(
            "UPDATE _slate_meta SET value = value + 1 WHERE key = 'revision' RETURNING value")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw connection.failure("revision") }
        return sqlite3_column_int64(statement, 0)
    }

    private static func insertLists(_ lists: [TaskList], revision: Int64, into connection: RawConnection) throws {
        let statement = try connection.prepare(
            "INSERT INTO lists (id, name, colour, icon, sortOrder, created, _rev) VALUES (?, ?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        for list in lists {
            bindText(statement, 1, list.id.uuidString)
            bindText(statement, 2, list.name)
            bindText(statement, 3, list.colour)
            bindText(statement, 4, list.icon)
            sqlite3_bind_int64(statement, 5, Int64(list.sortOrder))
            bindDate(statement, 6, list.created)
            sqlite3_bind_int64(statement, 7, revision)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw connection.failure("insert list") }
            sqlite3_reset(statement)
        }
    }

    /// The text of the tasks with rowids in `rowids`, into the full-text index.
    private static func indexText(of rowids: ClosedRange<Int64>, in connection: RawConnection) throws {
        let statement = try connection.prepare(
            "INSERT INTO tasks_fts(rowid, title, notes) SELECT _pk, title, notes FROM tasks WHERE _pk BETWEEN ? AND ?")
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, rowids.lowerBound)
        sqlite3_bind_int64(statement, 2, rowids.upperBound)
        guard sqlite3_step(statement) == SQLITE_DONE else { throw connection.failure("index text") }
    }

    /// Inserts the tasks; returns the rowids they were given.
    private static func insertTasks(_ tasks: [TaskItem], revision: Int64, into connection: RawConnection) throws -> ClosedRange<Int64> {
        var first: Int64?
        let names = taskColumns.joined(separator: ", ")
        let marks = Array(repeating: "?", count: taskColumns.count + 1).joined(separator: ", ")
        let statement = try connection.prepare("INSERT INTO tasks (\(names), _rev) VALUES (\(marks))")
        defer { sqlite3_finalize(statement) }
        for task in tasks {
            bindText(statement, 1, task.id.uuidString)
            sqlite3_bind_int64(statement, 2, Int64(task.number))
            bindText(statement, 3, task.title)
            bindText(statement, 4, task.notes)
            sqlite3_bind_int64(statement, 5, task.isCompleted ? 1 : 0)
            bindDate(statement, 6, task.completedAt)
            bindDate(statement, 7, task.created)
            bindDate(statement, 8, task.modified)
            bindDate(statement, 9, task.due)
            sqlite3_bind_int64(statement, 10, Int64(task.priority.rawValue))
            sqlite3_bind_int64(statement, 11, task.isFlagged ? 1 : 0)
            sqlite3_bind_int64(statement, 12, Int64(task.sortOrder))
            bindText(statement, 13, task.listID?.uuidString)
            sqlite3_bind_int64(statement, 14, revision)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw connection.failure("insert task") }
            sqlite3_reset(statement)
            if first == nil { first = sqlite3_last_insert_rowid(connection.handle) }
        }
        let last = sqlite3_last_insert_rowid(connection.handle)
        return (first ?? last + 1)...max(first ?? last + 1, last)
    }
}

/// The three read queries, prepared once on one connection and reused, as a hand-written
/// data layer would keep them.
final class RawQueries {
    private let connection: RawConnection
    private let openTasksStatement: OpaquePointer
    private let searchStatement: OpaquePointer
    private let countStatement: OpaquePointer

    init(connection: RawConnection) throws {
        self.connection = connection
        let columns = RawWorkload.taskColumns.map { "t." + $0 }.joined(separator: ", ")
        // Ties in the two sort keys fall back to insertion order (`_pk`), as in SlateStore,
        // so both sides return the rows in the same order.
        openTasksStatement = try connection.prepare("""
            SELECT \(columns) FROM tasks AS t WHERE t.listID = ? AND t.isCompleted = 0
            ORDER BY t.priority DESC, t.sortOrder ASC, t._pk
            """)
        searchStatement = try connection.prepare("""
            SELECT \(columns) FROM tasks_fts JOIN tasks AS t ON t._pk = tasks_fts.rowid
            WHERE tasks_fts MATCH ? ORDER BY t._pk
            """)
        countStatement = try connection.prepare("SELECT count(*) FROM tasks WHERE listID = ? AND isCompleted = 0")
    }

    deinit {
        sqlite3_finalize(openTasksStatement)
        sqlite3_finalize(searchStatement)
        sqlite3_finalize(countStatement)
    }

    /// The open tasks of a list, highest priority first, then by manual order.
    func openTasks(in listID: UUID) throws -> [TaskItem] {
        bindText(openTasksStatement, 1, listID.uuidString)
        return try tasks(from: openTasksStatement)
    }

    /// Tasks whose title or notes contain a word starting with `word`, in insertion order.
    func search(_ word: String) throws -> [TaskItem] {
        // The same FTS5 query SlateStore builds from search text: a quoted prefix term.
        bindText(searchStatement, 1, "\"\(word)\"*")
        return try tasks(from: searchStatement)
    }

    /// Every task in insertion order: used once, to check what the insert wrote.
    func allTasks() throws -> [TaskItem] {
        let columns = RawWorkload.taskColumns.map { "t." + $0 }.joined(separator: ", ")
        let statement = try connection.prepare("SELECT \(columns) FROM tasks AS t ORDER BY t._pk")
        defer { sqlite3_finalize(statement) }
        return try tasks(from: statement)
    }

    /// The number of open tasks in a list.
    func countOpenTasks(in listID: UUID) throws -> Int {
        bindText(countStatement, 1, listID.uuidString)
        defer { sqlite3_reset(countStatement) }
        guard sqlite3_step(countStatement) == SQLITE_ROW else { throw connection.failure("count") }
        return Int(sqlite3_column_int64(countStatement, 0))
    }

    private func tasks(from statement: OpaquePointer) throws -> [TaskItem] {
        defer { sqlite3_reset(statement) }
        var tasks: [TaskItem] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return tasks }
            guard code == SQLITE_ROW else { throw connection.failure("step") }
            tasks.append(try task(at: statement))
        }
    }

    /// Builds a task from the current row, columns in `RawWorkload.taskColumns` order.
    private func task(at statement: OpaquePointer) throws -> TaskItem {
        guard let id = columnUUID(statement, 0), let title = columnText(statement, 2),
              let created = columnDate(statement, 6), let modified = columnDate(statement, 7),
              let priority = TaskItem.Priority(rawValue: Int(sqlite3_column_int64(statement, 9)))
        else { throw RawError(message: "a task row has a missing or invalid value") }
        return TaskItem(
            id: id, number: Int(sqlite3_column_int64(statement, 1)), title: title, notes: columnText(statement, 3),
            isCompleted: sqlite3_column_int64(statement, 4) != 0, completedAt: columnDate(statement, 5),
            created: created, modified: modified, due: columnDate(statement, 8), priority: priority,
            isFlagged: sqlite3_column_int64(statement, 10) != 0, sortOrder: Int(sqlite3_column_int64(statement, 11)),
            listID: columnUUID(statement, 12))
    }
}

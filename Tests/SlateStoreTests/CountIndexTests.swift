import Foundation
@testable import SlateStore
import TestDatabases
import Testing

// `Item` counts its rows by (projectID, isDone) and by level (Fixtures.swift). After every
// kind of write — from this container, from another one on the same file (another
// process), by undo and redo, by delete rules, by a bulk undo, by a migration — the counts
// read from the index equal the rows counted one by one. On PostgreSQL, which keeps no
// count index, the same writes show its counts (counted by SQL) agree with the rows too.

@Suite struct CountIndexTests {
    /// The count `fetchCount` gives (from the index) and the number of rows fetched.
    func counts(_ context: ModelContext, project: UUID?, done: Bool) throws -> (indexed: Int, rows: Int) {
        let descriptor = FetchDescriptor<Item>(predicate: #Predicate { $0.projectID == project && $0.isDone == done })
        return (try context.fetchCount(descriptor), try context.fetch(descriptor).count)
    }

    /// Every key of both indexes agrees with the rows, for the projects given (and none).
    func verify(_ context: ModelContext, _ projects: [UUID], _ step: String) throws {
        for project in projects.map(Optional.some) + [nil] {
            for done in [false, true] {
                let (indexed, rows) = try counts(context, project: project, done: done)
                #expect(indexed == rows, "\(step): project \(project?.uuidString ?? "none"), done \(done)")
            }
        }
        for level in Item.Level.allCases {
            let descriptor = FetchDescriptor<Item>(predicate: #Predicate { $0.level == level })
            #expect(try context.fetchCount(descriptor) == (try context.fetch(descriptor).count), "\(step): level \(level)")
        }
        // No key is left behind at zero (SQLite: PostgreSQL counts the rows, see `fetchCount`).
        guard !TestDatabase.isPostgreSQL else { return }
        let zeros = try context.container.pool.read { try $0.scalar("SELECT count(*) FROM _slate_counts WHERE count <= 0") }
        #expect(zeros == .integer(0), "\(step)")
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "count indexes are kept on SQLite only"))
    func theCountIsReadFromTheIndexNotCounted() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let project = Project(name: "Garden")
        context.insert(project)
        for rank in 0..<5 { context.insert(Item(title: "Dig \(rank)", rank: rank, isDone: rank == 0, projectID: project.id)) }
        try context.save()
        #expect(try counts(context, project: project.id, done: false) == (4, 4))
        // Changed behind the store's back: the index keeps its number, which shows where
        // `fetchCount` reads it from (and why every write goes through a save).
        try container.pool.write { try $0.execute("DELETE FROM items WHERE isDone = 0 AND rank = 1") }
        #expect(try counts(context, project: project.id, done: false) == (4, 3))
        // A descriptor the index does not cover is counted row by row.
        let projectID: UUID? = project.id
        let ranked = FetchDescriptor<Item>(predicate: #Predicate { $0.projectID == projectID && $0.rank > 2 })
        #expect(try context.fetchCount(ranked) == 2)
    }

    @Test func everyKindOfWriteKeepsTheCountsRight() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let owner = Owner(name: "Ana")
        let first = Project(name: "Orchard", ownerID: owner.id)
        let second = Project(name: "Shed")
        context.insert(owner)
        context.insert(first)
        context.insert(second)
        var items: [Item] = []
        for index in 0..<12 {
            items.append(Item(title: "Task \(index)", isDone: index % 3 == 0, level: Item.Level(rawValue: index % 5)!,
                              projectID: [first.id, second.id, nil][index % 3]))
        }
        items.forEach(context.insert)
        try context.save()
        let projects = [first.id, second.id]
        try verify(context, projects, "insert")

        // One save: complete one, move one to another project, insert then change one,
        // insert then delete one, delete one.
        items[1].isDone = true
        context.update(items[1])
        items[2].projectID = first.id
        items[2].level = .critical
        context.update(items[2])
        var fresh = Item(title: "Fresh", projectID: second.id)
        context.insert(fresh)
        fresh.isDone = true
        context.update(fresh)
        let gone = Item(title: "Gone", projectID: first.id)
        context.insert(gone)
        context.delete(gone)
        context.delete(items[4])
        try context.save()
        try verify(context, projects, "mixed save")

        context.delete(second)  // nullifies its items' project: they move to the "none" key
        try context.save()
        try verify(context, projects, "nullify")
        context.delete(owner)  // cascades to its project, which nullifies its items
        try context.save()
        try verify(context, projects, "cascade")

        for step in 1...4 {
            #expect(try context.undo() != nil)
            try verify(context, projects, "undo \(step)")
        }
        for step in 1...4 {
            #expect(try context.redo() != nil)
            try verify(context, projects, "redo \(step)")
        }
    }

    @Test func aBulkInsertAndItsUndo() throws {
        let container = try makeContainer()
        let project = Project(name: "Import")
        let setup = ModelContext(container)
        setup.insert(project)
        try setup.save()
        let bulk = ModelContext(container)
        bulk.recordsInsertsByID = true
        for index in 0..<300 { bulk.insert(Item(title: "Row \(index)", isDone: index % 4 == 0, projectID: index % 2 == 0 ? project.id : nil)) }
        try bulk.save()
        try verify(bulk, [project.id], "bulk insert")
        #expect(try counts(bulk, project: project.id, done: true).indexed == 75)
        #expect(try bulk.undo() != nil)
        try verify(bulk, [project.id], "bulk undo")
        #expect(try counts(bulk, project: nil, done: false).indexed == 0)
    }

    @Test func aWriteFromAnotherContainerOnTheFileIsCountedForThisOne() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("counts.sqlite")
        let here = ModelContext(try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path)))
        let project = Project(name: "Shared")
        here.insert(project)
        here.insert(Item(title: "Mine", projectID: project.id))
        try here.save()
        #expect(try counts(here, project: project.id, done: false) == (1, 1))
        // Another process: its own container and connections on the same file.
        let there = ModelContext(try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path)))
        there.insert(Item(title: "Theirs", projectID: project.id))
        var mine = try #require(try there.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.title == "Mine" })).first)
        mine.isDone = true
        there.update(mine)
        try there.save()
        #expect(try counts(here, project: project.id, done: false) == (1, 1))
        #expect(try counts(here, project: project.id, done: true) == (1, 1))
        try verify(here, [project.id], "after the other container's save")
    }

    @Test func aCountIndexAddedToAFileWithRowsCountsThemWhenItIsOpened() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("counts.sqlite")
        do {
            let context = ModelContext(try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path)))
            for index in 0..<10 { context.insert(Item(title: "Old \(index)", isDone: index < 3)) }
            try context.save()
        }
        // As a file from before the index: no counts, another fingerprint.
        do {
            let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
            try database.execute("DELETE FROM _slate_counts; UPDATE _slate_meta SET value = 1 WHERE key = 'schema_fingerprint';")
        }
        let context = ModelContext(try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path)))
        #expect(try counts(context, project: nil, done: true) == (3, 3))
        #expect(try counts(context, project: nil, done: false) == (7, 7))
    }

    @Test func aDeclarationThatCannotBeCountedIsRefused() throws {
        #expect(throws: StoreError.self) { try ModelContainer(for: [CountedBlob.self]) }
    }
}

/// A count index over a blob column, which is refused.
private struct CountedBlob: PersistentModel {
    var id = UUID()
    var data: Data
    static let schema = ModelSchema<CountedBlob>(table: "blobs", columns: [.column(\.data, "data")],
                                                 counts: [CountIndex("by_data", on: ["data"])])
}

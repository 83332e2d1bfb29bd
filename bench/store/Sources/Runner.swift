import Foundation
import SlateStore

/// Runs every line of the benchmark on fresh temporary database files.
struct Runner {
    let options: Options
    let dataset: Dataset
    let folder: URL

    /// The target of every line: SlateStore within 1.5x of the raw loop.
    static let target = 1.5

    func run() throws -> [LineResult] {
        let insert = try runInserts()
        var lines = [insert.line]
        let context = ModelContext(insert.container)
        let queries = try RawQueries(connection: insert.raw)
        try verify(context: context, raw: queries)
        lines += try runQueries(context: context, raw: queries)
        return lines
    }

    // MARK: Bulk insert

    /// Repeats the bulk insert, each time into a new pair of files; keeps the last pair
    /// for the queries.
    private func runInserts() throws -> (line: LineResult, container: ModelContainer, raw: RawConnection) {
        var sampler = AlternatingSampler()
        var kept: (ModelContainer, RawConnection)?
        for repetition in 0..<options.insertRepetitions {
            let storePath = folder.appendingPathComponent("store-\(repetition).sqlite").path
            let rawPath = folder.appendingPathComponent("raw-\(repetition).sqlite").path
            let container = try ModelContainer(for: benchmarkModels, configuration: ModelConfiguration(path: storePath))
            let raw = try Self.rawConnection(onSchemaAt: rawPath)
            try sampler.repetition(
                repetition,
                store: { try measure { try StoreWorkload.insert(dataset, into: container) }.timing },
                raw: { try measure { try RawWorkload.insert(dataset, into: raw) }.timing })
            progress("insert \(repetition + 1)/\(options.insertRepetitions)")
            if repetition == options.insertRepetitions - 1 {
                kept = (container, raw)
            } else {
                Self.removeDatabase(at: storePath)
                Self.removeDatabase(at: rawPath)
            }
        }
        guard let (container, raw) = kept else { throw RawError(message: "no insert repetitions were run") }
        let rows = dataset.lists.count + dataset.tasks.count
        let line = LineResult(
            name: "bulk insert", detail: "\(dataset.tasks.count) tasks + \(dataset.lists.count) lists, one transaction",
            rows: rows, store: sampler.store, raw: sampler.raw, target: Self.target)
        return (line, container, raw)
    }

    /// A raw connection on a file whose tables a `ModelContainer` created, so the raw
    /// side writes into exactly the same schema. The container is closed first.
    private static func rawConnection(onSchemaAt path: String) throws -> RawConnection {
        do {
            _ = try ModelContainer(for: benchmarkModels, configuration: ModelConfiguration(path: path))
        }
        return try RawConnection(path: path)
    }

    private static func removeDatabase(at path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    // MARK: Queries

    private func runQueries(context: ModelContext, raw: RawQueries) throws -> [LineResult] {
        let lists = dataset.lists.map(\.id)
        let openPerList = dataset.tasks.count / lists.count / 2
        var fetch = AlternatingSampler()
        for repetition in 0..<options.queryRepetitions {
            let list = lists[repetition % lists.count]
            try fetch.repetition(
                repetition,
                store: { try timed(expecting: openPerList) { try StoreWorkload.openTasks(in: list, context: context).count } },
                raw: { try timed(expecting: openPerList) { try raw.openTasks(in: list).count } })
        }
        progress("fetch")
        var search = AlternatingSampler()
        for repetition in 0..<options.queryRepetitions {
            try search.repetition(
                repetition,
                store: { try timed(expecting: dataset.searchHits) { try StoreWorkload.search(dataset.searchWord, context: context).count } },
                raw: { try timed(expecting: dataset.searchHits) { try raw.search(dataset.searchWord).count } })
        }
        progress("search")
        var count = AlternatingSampler()
        for repetition in 0..<options.countRepetitions {
            let list = lists[repetition % lists.count]
            try count.repetition(
                repetition,
                store: { try timed(expecting: openPerList) { try StoreWorkload.countOpenTasks(in: list, context: context) } },
                raw: { try timed(expecting: openPerList) { try raw.countOpenTasks(in: list) } })
        }
        progress("count")
        return [
            LineResult(
                name: "fetch by index", detail: "a list's open tasks, by priority desc then manual order",
                rows: openPerList, store: fetch.store, raw: fetch.raw, target: Self.target),
            LineResult(
                name: "text search", detail: "FTS5 prefix search for '\(dataset.searchWord)' in title and notes",
                rows: dataset.searchHits, store: search.store, raw: search.raw, target: Self.target),
            LineResult(
                name: "count", detail: "a list's open tasks (fetchCount)",
                rows: openPerList, store: count.store, raw: count.raw, target: Self.target),
        ]
    }

    /// Times one query and checks it returned the expected number of rows, so that
    /// neither side can be fast by doing less.
    private func timed(expecting rows: Int, _ body: () throws -> Int) throws -> Timing {
        let (count, timing) = try measure(body)
        guard count == rows else { throw RawError(message: "a query returned \(count) rows instead of \(rows)") }
        return timing
    }

    // MARK: Checking both sides agree

    /// Before timing queries: both files hold exactly the generated rows, and both sides
    /// return equal Swift values in the same order. This also warms both connections.
    private func verify(context: ModelContext, raw: RawQueries) throws {
        for task in dataset.tasks.prefix(1000) where task.rowValues != TaskItem.schema.columnValues(of: task) {
            throw RawError(message: "TaskItem.rowValues differs from its schema's key paths for \(task.id)")
        }
        for list in dataset.lists where list.rowValues != TaskList.schema.columnValues(of: list) {
            throw RawError(message: "TaskList.rowValues differs from its schema's key paths for \(list.id)")
        }
        let stored = try context.fetch(FetchDescriptor<TaskItem>())
        guard stored == dataset.tasks else { throw RawError(message: "SlateStore did not read back the inserted tasks") }
        guard try raw.allTasks() == dataset.tasks else {
            throw RawError(message: "the raw loop did not read back the inserted tasks")
        }
        for list in dataset.lists.prefix(3).map(\.id) {
            let fromStore = try StoreWorkload.openTasks(in: list, context: context)
            guard fromStore == (try raw.openTasks(in: list)), !fromStore.isEmpty else {
                throw RawError(message: "the two sides disagree on the open tasks of list \(list)")
            }
            let storeCount = try StoreWorkload.countOpenTasks(in: list, context: context)
            guard storeCount == (try raw.countOpenTasks(in: list)) else {
                throw RawError(message: "the two sides disagree on the count of list \(list)")
            }
        }
        let found = try StoreWorkload.search(dataset.searchWord, context: context)
        guard found == (try raw.search(dataset.searchWord)), found.count == dataset.searchHits else {
            throw RawError(message: "the two sides disagree on the search for '\(dataset.searchWord)'")
        }
    }

    /// Progress goes to stdout with the rest, so a saved log reads in order.
    private func progress(_ step: String) {
        print("  \(step) done")
    }
}

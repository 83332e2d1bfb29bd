import Foundation
import SlateStore

/// The SlateStore side: the work an app does through the public API.
enum StoreWorkload {
    /// Stages every list and task in one context and saves once (one transaction).
    ///
    /// The context records no undo images (`undo: false`), as a bulk import would and as
    /// SwiftData's context does by default (its `undoManager` is nil).
    static func insert(_ dataset: Dataset, into container: ModelContainer) throws {
        let context = ModelContext(container, undo: false)
        for list in dataset.lists { context.insert(list) }
        for task in dataset.tasks { context.insert(task) }
        try context.save()
    }

    /// The open tasks of a list, highest priority first, then by manual order.
    static func openTasks(in listID: UUID, context: ModelContext) throws -> [TaskItem] {
        let list: UUID? = listID
        let descriptor = FetchDescriptor<TaskItem>(
            predicate: #Predicate { $0.listID == list && $0.isCompleted == false },
            sortKeys: [.descending(\.priority), .ascending(\.sortOrder)])
        return try context.fetch(descriptor)
    }

    /// Tasks whose title or notes contain a word starting with `word`, in insertion order.
    static func search(_ word: String, context: ModelContext) throws -> [TaskItem] {
        var descriptor = FetchDescriptor<TaskItem>()
        descriptor.searchText = word
        return try context.fetch(descriptor)
    }

    /// The number of open tasks in a list.
    static func countOpenTasks(in listID: UUID, context: ModelContext) throws -> Int {
        let list: UUID? = listID
        return try context.fetchCount(
            FetchDescriptor<TaskItem>(predicate: #Predicate { $0.listID == list && $0.isCompleted == false }))
    }
}

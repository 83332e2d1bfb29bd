import Foundation

/// A count of a model's rows for each value of some of its columns (an account and
/// whether a task is completed, say), kept up to date by every save in its own
/// transaction, so that counting one group reads one number instead of walking an index.
///
/// `ModelContext.fetchCount` answers from it when the descriptor fixes exactly these
/// columns with `==` (in its predicate and filters, nothing else, no search text):
///
/// ```swift
/// // in the schema: counts: [CountIndex("notes_by_folder_state", on: ["folderID", "isArchived"])]
/// try context.fetchCount(FetchDescriptor<Note>(predicate: #Predicate {
///     $0.folderID == folder && $0.isArchived == false
/// }))  // one lookup, however many notes the folder holds
/// ```
///
/// SQLite can only count an index range by walking it: 100,000 entries for the two counts
/// `slate list` shows at 100,000 tasks, 47M instructions, half of the command.
public struct CountIndex: Sendable, Hashable {
    /// The count's name, unique among a model's count indexes.
    public let name: String
    /// The columns whose values the rows are counted by.
    public let columns: [String]

    /// Counts the rows for each combination of values of `columns`.
    public init(_ name: String, on columns: [String]) {
        self.name = name
        self.columns = columns
    }
}

import Foundation

/// Every name and limit a client needs to offer the same choices as the server accepts:
/// smart lists, sorts, statuses, priorities, the palette, list icons and limits. Built
/// from the declarations the rules themselves use, so a client that reads it cannot drift.
public enum Vocabulary {
    /// The largest page `GET /tasks` returns.
    public static let maximumPageSize = 500
    /// The most ids one batch takes.
    public static let maximumBatchSize = 1000

    /// The vocabulary as JSON values (dictionaries, arrays, strings and numbers).
    public static var json: [String: Any] {
        [
            "smartLists": SmartList.all.map {
                ["name": $0.name, "title": $0.title, "glyph": $0.glyph, "sort": $0.sort.rawValue, "status": $0.status.rawValue] as [String: Any]
            },
            "sorts": TaskQuery.Sort.allCases.map { ["name": $0.rawValue, "title": $0.title] },
            "statuses": TaskQuery.Status.allCases.map(\.rawValue),
            "priorities": Priority.allCases.reversed().map {
                ["name": $0.name, "title": $0.title, "marks": $0.marks, "rank": $0.rawValue] as [String: Any]
            },
            "palette": TaskList.palette,
            "defaultColor": TaskList.defaultColor,
            "icons": TaskList.icons.map { ["name": $0.name, "glyph": $0.glyph] },
            "defaultIcon": TaskList.defaultIcon,
            "recurrenceFrequencies": Recurrence.Frequency.allCases.map(\.rawValue),
            "limits": limits,
        ]
    }

    /// The sizes every surface enforces.
    public static var limits: [String: Int] {
        [
            "title": TaskRules.maximumTitleLength,
            "notes": TaskRules.maximumNotesLength,
            "listName": TaskRules.maximumListNameLength,
            "tag": TaskRules.maximumTagLength,
            "icon": TaskRules.maximumIconLength,
            "recurrenceInterval": TaskRules.maximumRecurrenceInterval,
            "pageSize": maximumPageSize,
            "batch": maximumBatchSize,
        ]
    }
}

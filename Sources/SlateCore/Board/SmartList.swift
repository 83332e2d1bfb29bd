import Foundation

/// A view of the whole board that every surface offers by name (`today`, `flagged`…):
/// the CLI's `--today`, the API's `scope=today`, the web app's sidebar. Declared once here.
public struct SmartList: Sendable, Hashable {
    /// The name in commands, query strings and URLs.
    public let name: String
    /// What people see ("Today").
    public let title: String
    /// The emoji the apps show beside it.
    public let glyph: String
    /// The view's default order.
    public let sort: TaskQuery.Sort
    /// Which tasks it shows by default.
    public let status: TaskQuery.Status
    /// The scope it queries.
    public let scope: TaskQuery.Scope

    /// Every smart list, in the order the apps show them.
    public static let all: [SmartList] = [
        SmartList(name: "all", title: "All Tasks", glyph: "🗂️", sort: .standard, status: .active, scope: .all),
        SmartList(name: "today", title: "Today", glyph: "📅", sort: .standard, status: .active, scope: .today),
        SmartList(name: "scheduled", title: "Scheduled", glyph: "🗓️", sort: .due, status: .active, scope: .scheduled),
        SmartList(name: "flagged", title: "Flagged", glyph: "🚩", sort: .standard, status: .active, scope: .flagged),
        SmartList(name: "overdue", title: "Overdue", glyph: "⏰", sort: .due, status: .active, scope: .overdue),
        SmartList(name: "inbox", title: "Inbox", glyph: "📥", sort: .standard, status: .active, scope: .inbox),
        SmartList(name: "completed", title: "Completed", glyph: "✅", sort: .standard, status: .all, scope: .completed),
    ]

    /// The smart list called `name` (exactly, lower case), or nil.
    public static func named(_ name: String) -> SmartList? { all.first { $0.name == name } }

    /// The names, for error messages: "all, today, scheduled, …".
    public static var acceptedForms: String { all.map(\.name).joined(separator: ", ") }
}

extension TaskQuery.Sort {
    /// What people see ("Due date").
    public var title: String {
        switch self {
        case .standard: "Default"
        case .priority: "Priority"
        case .due: "Due date"
        case .created: "Newest"
        case .title: "Title"
        case .manual: "Manual"
        }
    }

    /// The names, for error messages.
    public static var acceptedForms: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

extension Priority {
    /// What people see ("Critical").
    public var title: String { name.prefix(1).uppercased() + name.dropFirst() }
}

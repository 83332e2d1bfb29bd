import Foundation

/// A list of tasks: a category, a department, a reminders list.
public struct TaskList: Codable, Sendable, Identifiable, Hashable {
    public var id: UUID
    /// The account that owns the list.
    public var accountID: UUID
    /// Unique per account, compared without case; never blank.
    public var name: String
    /// `#RRGGBB`, upper case.
    public var color: String
    /// An icon name (SF Symbols style, e.g. "film", "music.note").
    public var icon: String
    /// Position in the manual order, ascending.
    public var order: Double
    public var created: Date

    public init(
        id: UUID = UUID(), accountID: UUID, name: String, color: String = TaskList.defaultColor,
        icon: String = TaskList.defaultIcon, order: Double = 0, created: Date = Date()
    ) {
        self.id = id
        self.accountID = accountID
        self.name = name
        self.color = color
        self.icon = icon
        self.order = order
        self.created = created
    }

    /// The colour of a list created without one.
    public static let defaultColor = "#4A90D9"
    /// The icon of a list created without one.
    public static let defaultIcon = "list.bullet"
    /// The palette offered by the apps, in order.
    public static let palette = ["#FF6B6B", "#FF9F43", "#FFE66D", "#A8E6CF", "#4ECDC4", "#4A90D9", "#C3A6FF", "#FF8FC7", "#8E8E93"]
}

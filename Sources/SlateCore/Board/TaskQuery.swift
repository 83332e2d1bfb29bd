import Foundation
import SlateStore

/// What a view shows: which tasks, in which order. The same value drives the CLI's
/// `slate list`, the API's `GET /tasks` and the web app's sidebar.
public struct TaskQuery: Sendable, Hashable {
    /// Which part of the board.
    public enum Scope: Sendable, Hashable {
        /// Every task.
        case all
        /// The tasks of one list.
        case list(UUID)
        /// Tasks without a list.
        case inbox
        /// Due before the end of today (overdue included).
        case today
        /// With a due date.
        case scheduled
        /// Flagged.
        case flagged
        /// Due in the past and not completed.
        case overdue
        /// Completed.
        case completed
    }

    /// Completed or not.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case all, active, completed
    }

    /// The order of the tasks.
    public enum Sort: String, Sendable, Hashable, CaseIterable {
        /// Incomplete first, then priority (critical first), then creation (oldest first).
        case standard = "default"
        /// Critical first, then creation.
        case priority
        /// Soonest first, undated last.
        case due
        /// Newest first.
        case created
        /// A–Z, ignoring case and accents.
        case title
        /// The order set by hand (drag, `slate move`).
        case manual
    }

    public var scope: Scope
    public var status: Status
    /// Words to find in titles and notes (prefixes, no case, no accents).
    public var search: String?
    public var priority: Priority?
    public var tag: String?
    /// Only the subtasks of this task.
    public var parentID: UUID?
    /// Only tasks that are no one's subtask (`parent=none`); ignored with `parentID`.
    public var isTopLevelOnly: Bool = false
    public var sort: Sort
    /// At most this many tasks; nil for all.
    public var limit: Int?
    public var offset: Int

    public init(scope: Scope = .all, status: Status = .all, search: String? = nil, priority: Priority? = nil,
                tag: String? = nil, parentID: UUID? = nil, sort: Sort = .standard, limit: Int? = nil, offset: Int = 0) {
        self.scope = scope
        self.status = status
        self.search = search
        self.priority = priority
        self.tag = tag
        self.parentID = parentID
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }
}

extension TaskQuery {
    /// The store fetch for this query, for one account at one moment.
    ///
    /// Conditions that say `property == value` are `where(_:is:)` filters rather than
    /// `#Predicate`s: each predicate shape costs a command about 2M instructions to build
    /// and translate, and these are the ones every view has. Fixing exactly the account,
    /// the list and the completion also lets the store read the totals from its count
    /// indexes (`TaskItem.schema`). The day boundaries are worked out only for the views
    /// that need them.
    func descriptor(accountID: UUID, now: Date, calendar: Calendar) -> FetchDescriptor<TaskItem> {
        var descriptor = FetchDescriptor<TaskItem>(sortKeys: sortKeys)
        descriptor.where(\.accountID, is: accountID)
        switch scope {
        case .all: break
        case .list(let listID): descriptor.where(\.listID, is: listID)
        case .inbox: descriptor.where(\.listID, is: nil)
        case .today:
            // Due by the end of today: a moment before tomorrow starts here, a day up to today's.
            let startOfTomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now
            let today = CalendarDay(now, in: calendar).number
            let bound = Self.allDayBound(after: startOfTomorrow)
            descriptor.filters.append(#Predicate {
                $0.due != nil && $0.due! < bound
                    && (($0.isAllDay && $0.dueDay != nil && $0.dueDay! <= today) || (!$0.isAllDay && $0.due! < startOfTomorrow))
            })
        case .scheduled: descriptor.filters.append(#Predicate { $0.due != nil })
        case .flagged: descriptor.filters.append(#Predicate { $0.isFlagged })
        case .overdue: descriptor.filters.append(Self.overdue(now: now, calendar: calendar))
        case .completed: descriptor.where(\.isCompleted, is: true)
        }
        // An equality rather than a bare or negated column: it lets SQLite seek the
        // (accountID, isCompleted, …) index to just those tasks and walk it in the default
        // order; `!$0.isCompleted` scans every task of the account.
        switch status {
        case .all: break
        case .active: descriptor.where(\.isCompleted, is: false)
        case .completed: descriptor.where(\.isCompleted, is: true)
        }
        if let priority { descriptor.where(\.priority, is: priority) }
        if let tag = tag.map(TaskRules.normalizedTag), !tag.isEmpty {
            descriptor.filters.append(#Predicate { $0.tags.contains(tag) })
        }
        if let parentID {
            descriptor.where(\.parentID, is: parentID)
        } else if isTopLevelOnly {
            descriptor.where(\.parentID, is: nil)
        }
        descriptor.searchText = search
        descriptor.fetchLimit = limit
        descriptor.fetchOffset = offset == 0 ? nil : offset
        // Everything the predicates capture is in the query and the account, except the
        // moments of the views that depend on the time: those are translated every time.
        if scope != .today, scope != .overdue {
            var shape = self
            shape.limit = nil
            shape.offset = 0
            descriptor.translationKey = TranslationKey(accountID: accountID, query: shape)
        }
        return descriptor
    }

    /// What makes two descriptors of `descriptor(accountID:now:calendar:)` equal.
    private struct TranslationKey: Hashable {
        let accountID: UUID
        let query: TaskQuery
    }

    /// Due in the past and not completed; an all-day task once its day is over in `calendar`.
    static func overdue(now: Date, calendar: Calendar) -> Predicate<TaskItem> {
        let today = CalendarDay(now, in: calendar).number
        let bound = allDayBound(after: DayStarts.start(of: now, in: calendar))
        return #Predicate {
            !$0.isCompleted && $0.due != nil && $0.due! < bound
                && (($0.isAllDay && $0.dueDay != nil && $0.dueDay! < today) || (!$0.isAllDay && $0.due! < now))
        }
    }

    /// A moment no task due before the day that starts at `dayStart` (here) can be due at or
    /// after: an all-day date's `due` is its day's start where it was set, within 14 hours of
    /// UTC midnight, as `dayStart` is. The bound lets the store read the (account, due)
    /// index as a range instead of every dated task.
    private static func allDayBound(after dayStart: Date) -> Date {
        dayStart.addingTimeInterval(2 * 86_400)
    }

    var sortKeys: [SortKey<TaskItem>] {
        switch sort {
        case .standard: [.ascending(\.isCompleted), .descending(\.priority), .ascending(\.created)]
        case .priority: [.descending(\.priority), .ascending(\.created)]
        case .due: [.ascending(\.due, nilsLast: true), .descending(\.priority)]
        case .created: [.descending(\.created)]
        case .title: [.ascending(\.titleSortKey), .ascending(\.created)]
        case .manual: [.ascending(\.order), .ascending(\.created)]
        }
    }
}

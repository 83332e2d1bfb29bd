import Foundation
import SlateStore

/// How many tasks a query matches, and how many of those are active (not completed): what
/// a view with an Active and a Completed section shows beside their headings.
public struct TaskTotals: Sendable, Hashable {
    /// Every task the query matches, whatever its completion.
    public var all: Int
    /// The matching tasks that are not completed.
    public var active: Int

    /// The matching tasks that are completed.
    public var completed: Int { all - active }

    public init(all: Int, active: Int) {
        self.all = all
        self.active = active
    }
}

extension Slate {
    /// The totals of `query` (its limit and offset ignored), counted in one grouped query —
    /// `SELECT isCompleted, count(*) … GROUP BY isCompleted` — so a view's page can carry
    /// its Active count without a second read.
    ///
    /// ```swift
    /// let totals = try slate.totals(TaskQuery(search: "storyboard"))
    /// // totals.all == 42, totals.active == 30
    /// ```
    public func totals(_ query: TaskQuery) throws -> TaskTotals {
        let descriptor = query.descriptor(accountID: accountID, now: now, calendar: calendar)
        let byCompletion = try translatingErrors { try makeContext().fetchCounts(descriptor, groupedBy: \.isCompleted) }
        let active = byCompletion[false] ?? 0
        return TaskTotals(all: active + (byCompletion[true] ?? 0), active: active)
    }
}

import Foundation
import SlateStore
import Synchronization

/// Fires task alerts at their time, once per channel and device, across restarts.
///
/// - Each task with something to fire has an `AlertCursor` whose `nextFire` is indexed:
///   the scheduler asks only "what fires next" and sleeps until then (or until a change).
/// - Firing writes one `AlertDelivery` per channel/device and moves the cursor past the
///   alert in one transaction; the unique (task, moment, channel) key refuses a second.
///   A server killed before that commit fires it at the next start; after it, sends it.
/// - Sending marks the delivery sent; a failure is retried with backoff (30 s doubling to
///   an hour, 8 attempts), then given up and logged. A delivery whose send succeeded but
///   whose mark was lost to a crash is sent again with the same id (receivers can drop it).
/// - Alerts that came due while the server was down are sent marked late when younger than
///   `maximumAge`; older ones are skipped and logged.
public final class AlertScheduler: Sendable {
    let container: ModelContainer
    let channels: [any AlertChannel]
    let clock: @Sendable () -> Date
    /// Alerts older than this when the scheduler gets to them are skipped.
    public let maximumAge: TimeInterval
    let log: @Sendable (String) -> Void
    /// The task revision cursors are up to date with (0: none yet, read every task once).
    private let syncedRevision = Mutex(0)

    /// Sent this long after its moment, an alert is marked late.
    public static let lateAfter: TimeInterval = 60
    /// Attempts before a failing delivery is given up.
    public static let maximumAttempts = 8

    public init(container: ModelContainer, channels: [any AlertChannel], maximumAge: TimeInterval = 12 * 3600,
                clock: @escaping @Sendable () -> Date = { Date() }, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.container = container
        self.channels = channels
        self.maximumAge = maximumAge
        self.clock = clock
        self.log = log
    }

    // MARK: Keeping cursors

    /// Brings cursors up to date with the tasks changed since the last call (every task
    /// the first time). Blocking: call it off the cooperative pool.
    public func syncCursors() throws {
        let context = ModelContext(container, undo: false)
        let since = syncedRevision.withLock { $0 }
        let changes = try context.changes(of: TaskItem.self, since: since)
        var calendars = AccountCalendars(context: context)
        for task in changes.upserted {
            let existing = try context.revisioned(AlertCursor.self, id: task.id)
            let handled = existing?.model.handledThrough ?? task.modified
            let snoozed = existing?.model.snoozedUntil
            let next = AlertCursor.nextFire(of: task, after: handled, snoozedUntil: snoozed, calendar: try calendars[task.accountID])
            if let existing {
                guard existing.model.nextFire != next else { continue }
                var cursor = existing.model
                cursor.nextFire = next
                context.update(cursor, expectedRevision: existing.revision)
            } else if next != nil {
                context.insert(AlertCursor(taskID: task.id, accountID: task.accountID, nextFire: next, handledThrough: handled))
            }
        }
        if context.hasChanges { _ = try context.save() }
        syncedRevision.withLock { $0 = max($0, changes.revision) }
    }

    // MARK: Firing

    /// Fires what is due at the clock's now: records the deliveries and moves the cursors
    /// on, in one transaction. Returns how many deliveries it recorded.
    @discardableResult
    public func fireDue() throws -> Int {
        let now = clock()
        let context = ModelContext(container, undo: false)
        var descriptor = FetchDescriptor<AlertCursor>(
            predicate: #Predicate { $0.nextFire != nil && $0.nextFire! <= now }, sortKeys: [.ascending(\.nextFire)])
        descriptor.fetchLimit = 2_000
        var calendars = AccountCalendars(context: context)
        var targets: [UUID: [String]] = [:]
        var recorded = 0
        for read in try context.fetchRevisioned(descriptor) {
            var cursor = read.model
            guard let task = try context.model(TaskItem.self, id: cursor.taskID), !task.isCompleted else {
                context.delete(cursor, expectedRevision: read.revision)
                continue
            }
            let calendar = try calendars[task.accountID]
            var moments = task.alerts.compactMap { $0.fireDate(due: task.due, calendar: calendar) }
                .filter { $0 > cursor.handledThrough && $0 <= now }
            if let snoozed = cursor.snoozedUntil, snoozed <= now {
                moments.append(snoozed)
                cursor.snoozedUntil = nil
            }
            for moment in Set(moments).sorted() {
                let age = now.timeIntervalSince(moment)
                guard age <= maximumAge else {
                    log("alert skipped: task \(task.id.uuidString.lowercased()) was due to alert at \(Timestamp.format(moment)), older than \(Int(maximumAge)) s")
                    continue
                }
                if targets[task.accountID] == nil { targets[task.accountID] = try channelTargets(for: task.accountID, context: context) }
                for channel in targets[task.accountID] ?? [] {
                    context.insert(AlertDelivery(accountID: task.accountID, taskID: task.id, fireAt: moment, channel: channel,
                                                 isLate: age > Self.lateAfter, now: now))
                    recorded += 1
                }
            }
            cursor.handledThrough = max(cursor.handledThrough, now)
            cursor.nextFire = AlertCursor.nextFire(of: task, after: cursor.handledThrough, snoozedUntil: cursor.snoozedUntil, calendar: calendar)
            context.update(cursor, expectedRevision: read.revision)
        }
        if context.hasChanges { _ = try context.save() }
        return recorded
    }

    private func channelTargets(for accountID: UUID, context: ModelContext) throws -> [String] {
        let settings = try context.model(AlertSettings.self, id: accountID) ?? AlertSettings(accountID: accountID)
        return try channels.flatMap { try $0.targets(accountID: accountID, settings: settings) }
    }

    // MARK: Sending

    /// Sends the deliveries that are waiting (and due to be tried); returns how many were sent.
    @discardableResult
    public func deliverPending() async throws -> Int {
        let now = clock()
        let container = self.container
        let due: [(AlertDelivery, TaskItem?, Calendar)] = try await BoardThreads.shared.read {
            let context = ModelContext(container, undo: false)
            let pending = AlertDelivery.State.pending
            var descriptor = FetchDescriptor<AlertDelivery>(
                predicate: #Predicate { $0.state == pending && $0.nextAttempt <= now }, sortKeys: [.ascending(\.fireAt)])
            descriptor.fetchLimit = 500
            var calendars = AccountCalendars(context: context)
            return try context.fetch(descriptor).map { delivery in
                (delivery, try context.model(TaskItem.self, id: delivery.taskID), try calendars[delivery.accountID])
            }
        }
        var sent = 0
        for (delivery, task, calendar) in due {
            var outcome = delivery
            outcome.attempts += 1
            if let task, !task.isCompleted, let channel = channels.first(where: { delivery.channel.split(separator: ":").first.map(String.init) == $0.name }) {
                do {
                    try await channel.deliver(FiredAlert(deliveryID: delivery.id, accountID: delivery.accountID, task: task,
                                                         fireAt: delivery.fireAt, isLate: delivery.isLate || now.timeIntervalSince(delivery.fireAt) > Self.lateAfter,
                                                         channel: delivery.channel, calendar: calendar))
                    outcome.state = .sent
                    outcome.sentAt = clock()
                    sent += 1
                } catch {
                    outcome.lastError = String(String(describing: error).prefix(300))
                    let permanent = error is PermanentDeliveryFailure
                    if permanent || outcome.attempts >= Self.maximumAttempts {
                        outcome.state = .failed
                        log("alert delivery \(delivery.id.uuidString.lowercased()) through \(delivery.channel) given up after \(outcome.attempts) attempts: \(outcome.lastError)")
                    } else {
                        outcome.nextAttempt = now.addingTimeInterval(Self.backoff(afterAttempt: outcome.attempts))
                        log("alert delivery \(delivery.id.uuidString.lowercased()) through \(delivery.channel) failed, retrying at \(Timestamp.format(outcome.nextAttempt)): \(outcome.lastError)")
                    }
                }
            } else {
                outcome.state = .failed
                outcome.lastError = task == nil ? "the task is gone" : task!.isCompleted ? "the task is completed" : "no such channel"
            }
            let update = outcome
            try await BoardThreads.shared.write(to: container) {
                let context = ModelContext(container, undo: false)
                context.update(update)
                _ = try context.save()
            }
        }
        return sent
    }

    /// Seconds to wait after a failed attempt: 30 s doubling, at most an hour.
    public static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        min(3600, 30 * pow(2, Double(max(0, attempt - 1))))
    }

    // MARK: Waiting

    /// The next moment there is something to do: a cursor to fire or a delivery to retry.
    public func nextWake() throws -> Date? {
        let context = ModelContext(container, undo: false)
        var cursors = FetchDescriptor<AlertCursor>(predicate: #Predicate { $0.nextFire != nil }, sortKeys: [.ascending(\.nextFire)])
        cursors.fetchLimit = 1
        let pending = AlertDelivery.State.pending
        var deliveries = FetchDescriptor<AlertDelivery>(predicate: #Predicate { $0.state == pending }, sortKeys: [.ascending(\.nextAttempt)])
        deliveries.fetchLimit = 1
        let times = [try context.fetch(cursors).first?.nextFire, try context.fetch(deliveries).first?.nextAttempt].compactMap { $0 }
        return times.min()
    }

    /// Runs until cancelled: keeps cursors current, fires, sends, and sleeps until the next
    /// moment something is due or the board changes. Idle, it wakes once every 5 minutes.
    public func run() async {
        let doorbell = Doorbell()
        let changes = container.boardChanges()
        let relay = Task { for await _ in changes { doorbell.ring() } }
        defer { relay.cancel() }
        while !Task.isCancelled {
            var delay: TimeInterval = 300
            do {
                try await BoardThreads.shared.write(to: container) {
                    try self.syncCursors()
                    try self.fireDue()
                }
                try await deliverPending()
                if let wake = try await BoardThreads.shared.read({ try self.nextWake() }) {
                    delay = min(delay, wake.timeIntervalSince(clock()))
                }
            } catch {
                log("alert scheduler: \(error)")
                delay = 5
            }
            if delay > 0 { await doorbell.wait(seconds: delay) }
        }
    }
}

/// Each account's calendar (its time zone), read once per pass.
struct AccountCalendars {
    let context: ModelContext
    private var known: [UUID: Calendar] = [:]

    init(context: ModelContext) { self.context = context }

    subscript(accountID: UUID) -> Calendar {
        mutating get throws {
            if let calendar = known[accountID] { return calendar }
            var calendar = Calendar(identifier: .gregorian)
            let zone = try context.model(Account.self, id: accountID)?.timeZone.flatMap(TimeZone.init(identifier:))
            calendar.timeZone = zone ?? .current
            known[accountID] = calendar
            return calendar
        }
    }
}

/// Wakes a sleeping loop early. A ring with nobody waiting is kept for the next wait.
final class Doorbell: Sendable {
    private let state = Mutex<(rung: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns after `seconds`, or sooner when rung.
    func wait(seconds: TimeInterval) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            if !Task.isCancelled { self?.ring() }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            ring()
        }
        timer.cancel()
    }
}

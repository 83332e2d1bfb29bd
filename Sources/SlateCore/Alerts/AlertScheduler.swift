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
/// - Sending first records the attempt (`sending`) and commits, then sends (up to
///   `concurrentSends` at once), then records the outcomes in one commit: sent, or retried
///   with backoff (30 s doubling to an hour, 8 attempts), then given up and logged. A
///   delivery a kill left `sending` may have arrived: the next start sends it again with the
///   same id, marked as a possible repeat, and the channels let receivers drop it (webhook
///   `X-Slate-Delivery`, Web Push `Topic` and notification tag, email `Message-ID`).
/// - Alerts that came due while the server was down are sent marked late when younger than
///   `maximumAge`; older ones are skipped and logged.
/// - Several nodes on one PostgreSQL database each run a scheduler: every step that records
///   something does so against the revisions it read (a cursor, a delivery), so of two
///   schedulers firing or claiming the same thing one commits and the other's whole step is
///   refused and runs again on what is left. A claim is a lease (`claimLease`): a delivery
///   left `sending` by a node that died is sent again (marked as a possible repeat) once
///   its lease is over, by whichever node gets to it first.
public final class AlertScheduler: Sendable {
    let container: ModelContainer
    let channels: [any AlertChannel]
    let clock: @Sendable () -> Date
    /// Alerts older than this when the scheduler gets to them are skipped.
    public let maximumAge: TimeInterval
    let log: @Sendable (String) -> Void
    /// The task revision cursors are up to date with (0: none yet, read every task once).
    private let syncedRevision = Mutex(0)
    /// Set once the transaction that made deliveries interrupted by an earlier process due
    /// again has committed (`recoverInterruptedOnce`).
    let recovered = Mutex(false)
    let counts = DeliveryCounter()

    /// Sent this long after its moment, an alert is marked late.
    public static let lateAfter: TimeInterval = 60
    /// Attempts before a failing delivery is given up.
    public static let maximumAttempts = 8
    /// How long a claimed delivery is its claimer's: on a shared database, another node
    /// takes it over (as interrupted) only after this. Longer than a batch can take to send
    /// (500 deliveries, 32 at once, each given up after 20 s).
    public static let claimLease: TimeInterval = 10 * 60

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
    /// the first time), with what CalDAV clients recorded about their alarms
    /// (Thunderbird's acknowledgements and snoozes, see `ClientAlarmState`), and with
    /// accounts whose time zone changed (their day rules fire at another moment). Blocking:
    /// call it off the cooperative pool.
    public func syncCursors() throws {
        markSynced(try stageCursors())
    }

    /// `syncCursors` without recording how far it got: returns the revision to record with
    /// `markSynced` once its transaction has committed (a pass rolled back must read the
    /// same changes again, or their cursors are never written).
    func stageCursors() throws -> Int {
        let context = ModelContext(container, undo: false)
        let now = clock()
        let since = syncedRevision.withLock { $0 }
        let changes = try context.changes(of: TaskItem.self, since: since)
        // A client's bytes may change without the task (only its alarm state did).
        let stored = try context.changes(of: CalendarResourceBody.self, since: since)
        // The first time every task is read anyway.
        let accounts = since == 0 ? nil : try context.changes(of: Account.self, since: since)
        var tasks = changes.upserted
        var included = Set(tasks.map(\.id))
        for body in stored.upserted where !included.contains(body.id) {
            if let task = try context.model(TaskItem.self, id: body.id) {
                tasks.append(task)
                included.insert(task.id)
            }
        }
        for account in accounts?.upserted ?? [] {
            let accountID = account.id
            for task in try context.fetch(FetchDescriptor<TaskItem>(predicate: #Predicate { $0.accountID == accountID && $0.isCompleted == false }))
            where !task.alerts.isEmpty && included.insert(task.id).inserted {
                tasks.append(task)
            }
        }
        let bodies = Dictionary(stored.upserted.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let cursors = try self.cursors(of: tasks.map(\.id), context: context)
        var calendars = AccountCalendars(context: context)
        var storesBodies: [UUID: Bool] = [:]
        for task in tasks {
            let calendar = try calendars[task.accountID]
            let existing = cursors[task.id]
            var cursor = existing?.model ?? AlertCursor(taskID: task.id, accountID: task.accountID, nextFire: nil, handledThrough: task.modified)
            // Stored bytes that changed are among `bodies`. Unchanged bytes count only for a new
            // cursor (a snooze or dismissal in Slate since then must not be undone by the
            // client's older state whenever the task changes), only in an account that keeps
            // any (one that never used CalDAV has none), and never the first time.
            var clientState = bodies[task.id].flatMap { ClientAlarmState.read($0.data, calendar: calendar) }
            if clientState == nil, existing == nil, since != 0, bodies[task.id] == nil,
               try keepsBodies(task.accountID, in: &storesBodies, context: context) {
                clientState = try ClientAlarmState.stored(for: task.id, context: context, calendar: calendar)
            }
            clientState?.apply(to: &cursor)
            cursor.nextFire = AlertCursor.nextFire(of: task, after: cursor.handledThrough, snoozedUntil: cursor.snoozedUntil, calendar: calendar)
            if existing == nil, let next = cursor.nextFire, next <= now,
               let delivered = try lastDelivered(of: task.id, context: context), delivered > cursor.handledThrough {
                // A cursor made afresh (an undone delete or completion) starts from the task's
                // `modified`, which may be before alerts that went out then: they are handled.
                cursor.handledThrough = delivered
                cursor.nextFire = AlertCursor.nextFire(of: task, after: delivered, snoozedUntil: cursor.snoozedUntil, calendar: calendar)
            }
            if let existing {
                guard existing.model != cursor else { continue }
                context.update(cursor, expectedRevision: existing.revision)
            } else if cursor.nextFire != nil {
                context.insert(cursor)
            }
        }
        if context.hasChanges { _ = try context.save() }
        return min(changes.revision, stored.revision, accounts?.revision ?? changes.revision)
    }

    /// Records that cursors are current up to `revision` (after its pass committed).
    func markSynced(_ revision: Int) {
        syncedRevision.withLock { $0 = max($0, revision) }
    }

    /// The cursors of these tasks, by task id, read a few hundred at a time.
    private func cursors(of taskIDs: [UUID], context: ModelContext) throws -> [UUID: Revisioned<AlertCursor>] {
        var found: [UUID: Revisioned<AlertCursor>] = [:]
        for start in stride(from: 0, to: taskIDs.count, by: 500) {
            let chunk = Array(taskIDs[start..<min(start + 500, taskIDs.count)])
            for read in try context.fetchRevisioned(FetchDescriptor<AlertCursor>().matching(\.taskID, isIn: chunk)) {
                found[read.model.taskID] = read
            }
        }
        return found
    }

    /// True when the account has stored any CalDAV client's bytes (asked once per pass).
    private func keepsBodies(_ accountID: UUID, in known: inout [UUID: Bool], context: ModelContext) throws -> Bool {
        if let answer = known[accountID] { return answer }
        var descriptor = FetchDescriptor<CalendarResourceBody>(predicate: #Predicate { $0.accountID == accountID })
        descriptor.fetchLimit = 1
        let answer = try !context.fetch(descriptor).isEmpty
        known[accountID] = answer
        return answer
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
            var moments = task.alerts.compactMap { $0.fireDate(due: task.due(in: calendar), calendar: calendar) }
                .filter { $0 > cursor.handledThrough && $0 <= now }
            if let snoozed = cursor.snoozedUntil, snoozed <= now {
                moments.append(snoozed)
                cursor.snoozedUntil = nil
            }
            // Every moment here is after `handledThrough`, which is past every moment already
            // recorded for the task (a cursor made afresh starts after the last delivery, see
            // `stageCursors`): none is recorded twice, with no lookup per firing task.
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

    /// The latest moment for which the task has a delivery, if any (an indexed lookup:
    /// `alert_deliveries_once` starts with the task). Asked only for a cursor made afresh
    /// whose next moment has already come.
    private func lastDelivered(of taskID: UUID, context: ModelContext) throws -> Date? {
        var descriptor = FetchDescriptor<AlertDelivery>(predicate: #Predicate { $0.taskID == taskID }, sortKeys: [.descending(\.fireAt)])
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).first?.fireAt
    }

    func channelTargets(for accountID: UUID, context: ModelContext) throws -> [String] {
        let settings = try context.model(AlertSettings.self, id: accountID) ?? AlertSettings(accountID: accountID)
        return try channels.flatMap { try $0.targets(accountID: accountID, settings: settings) }
    }

    // MARK: Waiting

    /// The next moment there is something to do: a cursor to fire or a delivery to retry.
    public func nextWake() throws -> Date? {
        let pending = AlertDelivery.State.pending
        var deliveries = FetchDescriptor<AlertDelivery>(predicate: #Predicate { $0.state == pending }, sortKeys: [.ascending(\.nextAttempt)])
        deliveries.fetchLimit = 1
        let retry = try ModelContext(container, undo: false).fetch(deliveries).first?.nextAttempt
        return [try nextFire(), retry].compactMap { $0 }.min()
    }

    /// When the next cursor fires (an index lookup: the first of `alert_cursors_by_next`).
    func nextFire() throws -> Date? {
        var cursors = FetchDescriptor<AlertCursor>(predicate: #Predicate { $0.nextFire != nil }, sortKeys: [.ascending(\.nextFire)])
        cursors.fetchLimit = 1
        return try ModelContext(container, undo: false).fetch(cursors).first?.nextFire
    }

    /// Idle, each loop wakes at least this often.
    static let idleWake: TimeInterval = 300

    /// A pass of the firing loop begins at least this long after the one before. Every
    /// commit rings the loop, and a pass is a write transaction of its own on the writer
    /// (the changes since the last pass, their cursors, what is due): under a stream of
    /// writes it ran once per commit group, as many statements again as the writes it
    /// followed. Spaced, it runs a few times a second whatever the write rate, reading all
    /// the changes since the last pass (none is missed); a cursor is at most this much late.
    static let passSpacing: Duration = .milliseconds(200)

    /// Runs until cancelled. One loop keeps cursors current and fires what is due, sleeping
    /// until the next cursor fires or the board changes; one loop per channel sends that
    /// channel's deliveries, sleeping until firing made more or its next retry is due; they
    /// start once the recovery of deliveries a killed process left `sending` has committed.
    /// Idle, each wakes once every 5 minutes.
    public func run() async {
        let doorbell = Doorbell()
        let senders = channels.map { ($0, Doorbell()) }
        let changes = container.boardChanges()
        let relay = Task { for await _ in changes { doorbell.ring() } }
        defer { relay.cancel() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Interrupted deliveries are made due again before any channel claims one.
                guard await self.recoverUntilCommitted() else { return }
                await withTaskGroup(of: Void.self) { senderGroup in
                    for (channel, bell) in senders {
                        senderGroup.addTask { await self.sendLoop(channel, bell: bell) }
                    }
                }
            }
            group.addTask { await self.fireLoop(doorbell, senders: senders.map(\.1)) }
        }
    }

    /// Runs `recoverInterruptedOnce` until it commits (every 5 s after a failure, logged);
    /// false: cancelled first.
    private func recoverUntilCommitted() async -> Bool {
        while !Task.isCancelled {
            do {
                try await recoverInterruptedOnce()
                return true
            } catch {
                log("alert scheduler: recovering interrupted deliveries: \(error)")
                try? await Task.sleep(for: .seconds(5))
            }
        }
        return false
    }

    private func fireLoop(_ doorbell: Doorbell, senders: [Doorbell]) async {
        var began: ContinuousClock.Instant?
        while !Task.isCancelled {
            if let began, ContinuousClock.now < began + Self.passSpacing {
                try? await Task.sleep(until: began + Self.passSpacing)
            }
            began = ContinuousClock.now
            var delay = Self.idleWake
            do {
                let now = clock()
                let (made, synced) = try await BoardThreads.shared.write(to: container) {
                    let synced = try self.stageCursors()
                    return (try self.fireDue() + self.expandTestRequests(now: now), synced)
                }
                markSynced(synced)
                if made > 0 { for bell in senders { bell.ring() } }
                if let wake = try await BoardThreads.shared.read({ try self.nextFire() }) {
                    delay = min(delay, wake.timeIntervalSince(clock()))
                }
            } catch let error as StoreError where error.isRaceWithAnotherScheduler {
                // Another node's scheduler did the same step first: do it again on what is left.
                delay = Double.random(in: 0.05...0.5)
            } catch {
                log("alert scheduler: \(error)")
                delay = 5
            }
            if delay > 0 { await doorbell.wait(seconds: delay) }
        }
    }

    private func sendLoop(_ channel: any AlertChannel, bell: Doorbell) async {
        while !Task.isCancelled {
            var delay = Self.idleWake
            do {
                // A full batch: more may be waiting. Otherwise sleep until the next retry.
                if try await pass(through: channel).claimed >= Self.batchSize { continue }
                if let next = try await BoardThreads.shared.read({ try self.nextAttempt(through: channel.name) }) {
                    delay = min(delay, next.timeIntervalSince(clock()))
                }
            } catch let error as StoreError where error.isRaceWithAnotherScheduler {
                // Another node claimed some of the same deliveries first: claim what is left.
                delay = Double.random(in: 0.05...0.5)
            } catch {
                log("alert delivery through \(channel.name): \(error)")
                delay = 5
            }
            if delay > 0 { await bell.wait(seconds: delay) }
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

extension StoreError {
    /// A write refused because another scheduler (another node) wrote the same rows first:
    /// a cursor or delivery changed since it was read, or the same new row inserted twice.
    var isRaceWithAnotherScheduler: Bool {
        switch self {
        case .conflict, .constraintViolation: true
        default: false
        }
    }
}

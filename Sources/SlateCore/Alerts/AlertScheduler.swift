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
    /// Set once deliveries interrupted by an earlier process have been made due again.
    private let recovered = Mutex(false)
    private let counts = DeliveryCounter()

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
    /// the first time), and with what CalDAV clients recorded about their alarms
    /// (Thunderbird's acknowledgements and snoozes, see `ClientAlarmState`). Blocking: call
    /// it off the cooperative pool.
    public func syncCursors() throws {
        let context = ModelContext(container, undo: false)
        let since = syncedRevision.withLock { $0 }
        let changes = try context.changes(of: TaskItem.self, since: since)
        // A client's bytes may change without the task (only its alarm state did).
        let stored = try context.changes(of: CalendarResourceBody.self, since: since)
        var tasks = changes.upserted
        let changedTasks = Set(tasks.map(\.id))
        for body in stored.upserted where !changedTasks.contains(body.id) {
            if let task = try context.model(TaskItem.self, id: body.id) { tasks.append(task) }
        }
        let bodies = Dictionary(stored.upserted.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var calendars = AccountCalendars(context: context)
        for task in tasks {
            let calendar = try calendars[task.accountID]
            let existing = try context.revisioned(AlertCursor.self, id: task.id)
            var cursor = existing?.model ?? AlertCursor(taskID: task.id, accountID: task.accountID, nextFire: nil, handledThrough: task.modified)
            // The first time, every stored body is among `bodies`: no lookup for the others.
            let clientState = try bodies[task.id].map { ClientAlarmState.read($0.data, calendar: calendar) }
                ?? (since == 0 ? nil : ClientAlarmState.stored(for: task.id, context: context, calendar: calendar))
            clientState?.apply(to: &cursor)
            cursor.nextFire = AlertCursor.nextFire(of: task, after: cursor.handledThrough, snoozedUntil: cursor.snoozedUntil, calendar: calendar)
            if let existing {
                guard existing.model != cursor else { continue }
                context.update(cursor, expectedRevision: existing.revision)
            } else if cursor.nextFire != nil {
                context.insert(cursor)
            }
        }
        if context.hasChanges { _ = try context.save() }
        syncedRevision.withLock { $0 = max($0, min(changes.revision, stored.revision)) }
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

    /// Deliveries claimed in one pass.
    public static let batchSize = 500
    /// Sends in flight at once (each channel call waits on a network answer).
    public static let concurrentSends = 32

    /// One claimed delivery and what sending it needs.
    struct Claim: Sendable {
        var delivery: AlertDelivery
        var task: TaskItem?
        var calendar: Calendar
    }

    /// Sends the deliveries that are waiting (and due to be tried); returns how many were sent.
    ///
    /// Exactly once, as far as a channel can: the attempt is recorded (`sending`, one more
    /// attempt) and committed before anything is sent, and its outcome after. A delivery
    /// found `sending` by a new scheduler was interrupted by a kill: it may have arrived, so
    /// it goes again with the same id, marked as a possible repeat (`mayBeRepeat`).
    @discardableResult
    public func deliverPending() async throws -> Int {
        let now = clock()
        let container = self.container
        let claims: [Claim] = try await BoardThreads.shared.write(to: container) {
            try self.recoverInterrupted(now: now)
            try self.expandTestRequests(now: now)
            return try self.claimDue(now: now)
        }
        guard !claims.isEmpty else { return 0 }
        let outcomes = await withTaskGroup(of: AlertDelivery.self, returning: [AlertDelivery].self) { group in
            var outcomes: [AlertDelivery] = []
            var waiting = claims[...]
            for _ in 0..<Self.concurrentSends {
                guard let claim = waiting.popFirst() else { break }
                group.addTask { await self.send(claim, now: now) }
            }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if let claim = waiting.popFirst() { group.addTask { await self.send(claim, now: now) } }
            }
            return outcomes
        }
        let recorded = outcomes
        try await BoardThreads.shared.write(to: container) {
            let context = ModelContext(container, undo: false)
            for outcome in recorded { context.update(outcome) }
            _ = try context.save()
        }
        return outcomes.filter { $0.state == .sent }.count
    }

    /// Deliveries left `sending` by a killed process are due again now. On a file, once per
    /// scheduler (that is, per start): one server runs per file (`ServingLock`), so no other
    /// process is sending them. On a shared database, at every pass, those whose claim's
    /// lease is over (their node died, or is hopelessly stuck).
    private func recoverInterrupted(now: Date) throws {
        let shared = container.announcesCommits
        if !shared {
            guard recovered.withLock({ recovered in defer { recovered = true }; return !recovered }) else { return }
        }
        let context = ModelContext(container, undo: false)
        let sending = AlertDelivery.State.sending
        let predicate = shared
            ? #Predicate<AlertDelivery> { $0.state == sending && $0.nextAttempt <= now }
            : #Predicate<AlertDelivery> { $0.state == sending }
        for read in try context.fetchRevisioned(FetchDescriptor<AlertDelivery>(predicate: predicate)) {
            var delivery = read.model
            delivery.state = .pending
            delivery.nextAttempt = now
            context.update(delivery, expectedRevision: read.revision)
            log("alert delivery \(delivery.id.uuidString.lowercased()) through \(delivery.channel) was interrupted while sending: sending it again, marked as a possible repeat")
        }
        if context.hasChanges { _ = try context.save() }
    }

    /// Turns each test alert asked for in settings into one delivery per channel/device.
    private func expandTestRequests(now: Date) throws {
        let context = ModelContext(container, undo: false)
        let pending = AlertDelivery.State.pending, request = TestAlert.requestChannel
        let requests = try context.fetchRevisioned(FetchDescriptor<AlertDelivery>(predicate: #Predicate { $0.state == pending && $0.channel == request }))
        guard !requests.isEmpty else { return }
        for read in requests {
            var test = read.model
            for channel in try channelTargets(for: test.accountID, context: context) {
                context.insert(AlertDelivery(accountID: test.accountID, taskID: test.taskID, fireAt: test.fireAt, channel: channel,
                                             isLate: false, now: now, isTest: true))
            }
            test.state = .sent
            test.sentAt = now
            context.update(test, expectedRevision: read.revision)
        }
        _ = try context.save()
    }

    /// Marks up to `batchSize` due deliveries `sending`, one more attempt each, for
    /// `claimLease`, and commits that before any is sent. Each is claimed as it was read: a
    /// delivery another node claimed meanwhile makes the claim refused (`conflict`), and
    /// nothing is sent this pass.
    private func claimDue(now: Date) throws -> [Claim] {
        let context = ModelContext(container, undo: false)
        let pending = AlertDelivery.State.pending
        var descriptor = FetchDescriptor<AlertDelivery>(
            predicate: #Predicate { $0.state == pending && $0.nextAttempt <= now }, sortKeys: [.ascending(\.nextAttempt)])
        descriptor.fetchLimit = Self.batchSize
        var calendars = AccountCalendars(context: context)
        var claims: [Claim] = []
        for read in try context.fetchRevisioned(descriptor) {
            var delivery = read.model
            let calendar = try calendars[delivery.accountID]
            let task = try delivery.isTest ? TestAlert.task(delivery, calendar: calendar) : context.model(TaskItem.self, id: delivery.taskID)
            claims.append(Claim(delivery: delivery, task: task, calendar: calendar))
            delivery.state = .sending
            delivery.attempts += 1
            delivery.nextAttempt = now.addingTimeInterval(Self.claimLease)
            context.update(delivery, expectedRevision: read.revision)
        }
        if context.hasChanges { _ = try context.save() }
        return claims
    }

    /// One attempt at one delivery; returns the delivery as it should be recorded.
    private func send(_ claim: Claim, now: Date) async -> AlertDelivery {
        let delivery = claim.delivery
        var outcome = delivery
        outcome.attempts += 1
        let channelName = delivery.channel.split(separator: ":").first.map(String.init) ?? ""
        guard let task = claim.task, !task.isCompleted, let channel = channels.first(where: { $0.name == channelName }) else {
            outcome.state = .failed
            outcome.lastError = claim.task == nil ? "the task is gone" : claim.task!.isCompleted ? "the task is completed" : "no such channel"
            counts.count(channelName, "skipped")
            return outcome
        }
        var alert = FiredAlert(deliveryID: delivery.id, accountID: delivery.accountID, task: task, fireAt: delivery.fireAt,
                               isLate: delivery.isLate || now.timeIntervalSince(delivery.fireAt) > Self.lateAfter,
                               channel: delivery.channel, calendar: claim.calendar)
        alert.mayBeRepeat = delivery.mayBeRepeat
        alert.isTest = delivery.isTest
        do {
            try await channel.deliver(alert)
            outcome.state = .sent
            outcome.sentAt = clock()
            counts.count(channelName, "sent")
        } catch {
            outcome.lastError = String(String(describing: error).prefix(300))
            if error is PermanentDeliveryFailure || outcome.attempts >= Self.maximumAttempts {
                outcome.state = .failed
                counts.count(channelName, "failed")
                log("alert delivery \(delivery.id.uuidString.lowercased()) through \(delivery.channel) given up after \(outcome.attempts) attempts: \(outcome.lastError)")
            } else {
                outcome.state = .pending
                outcome.nextAttempt = now.addingTimeInterval(Self.backoff(afterAttempt: outcome.attempts))
                counts.count(channelName, "retried")
                log("alert delivery \(delivery.id.uuidString.lowercased()) through \(delivery.channel) failed, retrying at \(Timestamp.format(outcome.nextAttempt)): \(outcome.lastError)")
            }
        }
        return outcome
    }

    /// How many deliveries each channel has made since the start, by outcome (`sent`,
    /// `retried`: failed and tried again later, `failed`: given up, `skipped`: the task was
    /// gone or completed) — for `/metrics`.
    public func deliveryCounts() -> [DeliveryCount] { counts.snapshot() }

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

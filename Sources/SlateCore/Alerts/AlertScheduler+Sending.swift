import Foundation
import SlateStore

// Sending: each channel claims and sends its own deliveries, so that a slow one (an SMTP
// server taking a second a message) never holds back the others (open pages, Web Push).

extension AlertScheduler {
    /// Deliveries one channel claims in one pass.
    public static let batchSize = 500

    /// One claimed delivery and what sending it needs.
    struct Claim: Sendable {
        var delivery: AlertDelivery
        var task: TaskItem?
        var calendar: Calendar
    }

    /// Sends the deliveries that are waiting (and due to be tried) through every channel, one
    /// pass each, side by side; returns how many were sent.
    ///
    /// Exactly once, as far as a channel can: the attempt is recorded (`sending`, one more
    /// attempt) and committed before anything is sent, and its outcome after. A delivery
    /// found `sending` by a new scheduler was interrupted by a kill: it may have arrived, so
    /// it goes again with the same id, marked as a possible repeat (`mayBeRepeat`).
    @discardableResult
    public func deliverPending() async throws -> Int {
        try await recoverInterruptedOnce()
        let now = clock()
        _ = try await BoardThreads.shared.write(to: container) { try self.expandTestRequests(now: now) }
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for channel in channels { group.addTask { try await self.pass(through: channel).sent } }
            return try await group.reduce(0, +)
        }
    }

    /// One pass of one channel: claims up to `batchSize` of its due deliveries, sends them
    /// (at most `channel.concurrentSends` at once) and records the outcomes in one commit.
    func pass(through channel: any AlertChannel) async throws -> (claimed: Int, sent: Int) {
        let now = clock()
        let shared = container.announcesCommits
        let claims: [Claim] = try await BoardThreads.shared.write(to: container) {
            // On a file, recovery ran once before the first pass (`recoverInterruptedOnce`).
            if shared { try self.recoverInterrupted(now: now) }
            return try self.claimDue(now: now, channel: channel.name)
        }
        guard !claims.isEmpty else { return (0, 0) }
        let window = max(1, channel.concurrentSends)
        let outcomes = await withTaskGroup(of: AlertDelivery.self, returning: [AlertDelivery].self) { group in
            var outcomes: [AlertDelivery] = []
            outcomes.reserveCapacity(claims.count)
            var waiting = claims[...]
            for _ in 0..<window {
                guard let claim = waiting.popFirst() else { break }
                group.addTask { await self.send(claim, through: channel, now: now) }
            }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if let claim = waiting.popFirst() { group.addTask { await self.send(claim, through: channel, now: now) } }
            }
            return outcomes
        }
        let recorded = outcomes
        let container = self.container
        try await BoardThreads.shared.write(to: container) {
            let context = ModelContext(container, undo: false)
            for outcome in recorded { context.update(outcome) }
            _ = try context.save()
        }
        return (claims.count, outcomes.filter { $0.state == .sent }.count)
    }

    /// Runs `recoverInterrupted` in a transaction of its own unless it has already
    /// committed once for this scheduler, and records that only after the commit: a
    /// recovery rolled back (a failed write, a failed group commit) runs again at the next
    /// call. `run()` calls it before any channel's first pass, and the send loops start only
    /// once it has committed, so no pass claims a delivery that recovery then resets.
    func recoverInterruptedOnce() async throws {
        guard !recovered.withLock({ $0 }) else { return }
        let now = clock()
        try await BoardThreads.shared.write(to: container) { try self.recoverInterrupted(now: now) }
        recovered.withLock { $0 = true }
    }

    /// Deliveries left `sending` by a killed process are due again now, and deliveries for
    /// a channel this server does not have (email without `--smtp-url` any more) are given
    /// up and logged. On a file, once per scheduler (that is, per start: see
    /// `recoverInterruptedOnce`): one server runs per file (`ServingLock`), so no other
    /// process is sending them. On a shared database, at every pass as well, those whose
    /// claim's lease is over (their node died, or is hopelessly stuck), each against the
    /// revision read; and no delivery is given up for want of a channel there, since
    /// another node may have it. Blocking: call it inside a write.
    func recoverInterrupted(now: Date) throws {
        let shared = container.announcesCommits
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
        if !shared {
            let known = Set(channels.map(\.name) + [TestAlert.requestChannel])
            let pending = AlertDelivery.State.pending
            for var delivery in try context.fetch(FetchDescriptor<AlertDelivery>(predicate: #Predicate { $0.state == pending }))
            where !known.contains(Self.channelName(of: delivery.channel)) {
                delivery.state = .failed
                delivery.lastError = "no such channel"
                context.update(delivery)
                counts.count(Self.channelName(of: delivery.channel), "skipped")
                log("alert delivery \(delivery.id.uuidString.lowercased()) through \(delivery.channel) given up: the server has no such channel now")
            }
        }
        if context.hasChanges { _ = try context.save() }
    }

    /// `push:abc` → `push`.
    static func channelName(of key: String) -> String {
        key.split(separator: ":", maxSplits: 1).first.map(String.init) ?? key
    }

    /// Turns each test alert asked for in settings into one delivery per channel/device;
    /// returns how many it made.
    @discardableResult
    func expandTestRequests(now: Date) throws -> Int {
        let context = ModelContext(container, undo: false)
        let pending = AlertDelivery.State.pending, request = TestAlert.requestChannel
        let requests = try context.fetchRevisioned(FetchDescriptor<AlertDelivery>(predicate: #Predicate { $0.state == pending && $0.channel == request }))
        guard !requests.isEmpty else { return 0 }
        var made = 0
        for read in requests {
            var test = read.model
            for channel in try channelTargets(for: test.accountID, context: context) {
                context.insert(AlertDelivery(accountID: test.accountID, taskID: test.taskID, fireAt: test.fireAt, channel: channel,
                                             isLate: false, now: now, isTest: true))
                made += 1
            }
            test.state = .sent
            test.sentAt = now
            context.update(test, expectedRevision: read.revision)
        }
        _ = try context.save()
        return made
    }

    /// Marks up to `batchSize` due deliveries of one channel `sending`, one more attempt
    /// each, for `claimLease`, and commits that before any is sent. Each is claimed as it
    /// was read: a delivery another node claimed meanwhile makes the claim refused
    /// (`conflict`), and nothing is sent this pass.
    private func claimDue(now: Date, channel name: String) throws -> [Claim] {
        let context = ModelContext(container, undo: false)
        let pending = AlertDelivery.State.pending
        // A test alert's request (see `TestAlert`) is expanded, never sent as it is.
        let prefix = name + ":", request = TestAlert.requestChannel
        var descriptor = FetchDescriptor<AlertDelivery>(
            predicate: #Predicate {
                $0.state == pending && $0.nextAttempt <= now && $0.channel != request && ($0.channel == name || $0.channel.starts(with: prefix))
            },
            sortKeys: [.ascending(\.nextAttempt)])
        descriptor.fetchLimit = Self.batchSize
        var calendars = AccountCalendars(context: context)
        var claims: [Claim] = []
        // A task's deliveries to several devices are claimed together: read it once.
        var tasks: [UUID: TaskItem?] = [:]
        for read in try context.fetchRevisioned(descriptor) {
            var delivery = read.model
            let calendar = try calendars[delivery.accountID]
            let task: TaskItem?
            if delivery.isTest {
                task = TestAlert.task(delivery, calendar: calendar)
            } else if let known = tasks[delivery.taskID] {
                task = known
            } else {
                task = try context.model(TaskItem.self, id: delivery.taskID)
                tasks[delivery.taskID] = task
            }
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
    private func send(_ claim: Claim, through channel: any AlertChannel, now: Date) async -> AlertDelivery {
        let delivery = claim.delivery
        var outcome = delivery
        outcome.attempts += 1
        guard let task = claim.task, !task.isCompleted else {
            outcome.state = .failed
            outcome.lastError = claim.task == nil ? "the task is gone" : "the task is completed"
            counts.count(channel.name, "skipped")
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
            counts.count(channel.name, "sent")
        } catch {
            outcome.lastError = String(String(describing: error).prefix(300))
            if error is PermanentDeliveryFailure || outcome.attempts >= Self.maximumAttempts {
                outcome.state = .failed
                counts.count(channel.name, "failed")
                log("alert delivery \(delivery.id.uuidString.lowercased()) through \(delivery.channel) given up after \(outcome.attempts) attempts: \(outcome.lastError)")
            } else {
                outcome.state = .pending
                outcome.nextAttempt = now.addingTimeInterval(Self.backoff(afterAttempt: outcome.attempts))
                counts.count(channel.name, "retried")
                log("alert delivery \(delivery.id.uuidString.lowercased()) through \(delivery.channel) failed, retrying at \(Timestamp.format(outcome.nextAttempt)): \(outcome.lastError)")
            }
        }
        return outcome
    }

    /// How many deliveries each channel has made since the start, by outcome (`sent`,
    /// `retried`: failed and tried again later, `failed`: given up, `skipped`: the task was
    /// gone or completed, or the channel is gone) — for `/metrics`.
    public func deliveryCounts() -> [DeliveryCount] { counts.snapshot() }

    /// Seconds to wait after a failed attempt: 30 s doubling, at most an hour.
    public static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        min(3600, 30 * pow(2, Double(max(0, attempt - 1))))
    }

    /// When the channel's next waiting delivery is due to be tried; nil: none waits.
    func nextAttempt(through channel: String) throws -> Date? {
        let context = ModelContext(container, undo: false)
        let pending = AlertDelivery.State.pending
        let prefix = channel + ":", request = TestAlert.requestChannel
        var descriptor = FetchDescriptor<AlertDelivery>(
            predicate: #Predicate { $0.state == pending && $0.channel != request && ($0.channel == channel || $0.channel.starts(with: prefix)) },
            sortKeys: [.ascending(\.nextAttempt)])
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).first?.nextAttempt
    }
}

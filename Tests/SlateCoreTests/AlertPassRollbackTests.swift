import Foundation
@testable import SlateCore
import TestDatabases
import Testing

@Suite struct AlertPassRollbackTests {
    struct Rollback: Error {}

    /// A pass whose transaction is rolled back (a later step failed, or the group commit
    /// did) records nothing of how far it read: the next pass reads the same changes again
    /// and writes the cursor. Recording it inside the transaction lost the task's alerts
    /// until the next restart.
    @Test func aRolledBackPassIsReadAgain() async throws {
        let harness = try SchedulerHarness()
        _ = try harness.task("Kept", due: date(2026, 11, 29, 11, 0), alerts: ["due"])
        let scheduler = harness.scheduler
        await #expect(throws: Rollback.self) {
            _ = try await BoardThreads.shared.write(to: harness.slate.container) { () throws -> Int in
                _ = try scheduler.stageCursors()
                throw Rollback()
            }
        }
        #expect(try scheduler.nextWake() == nil, "the cursor was rolled back with its pass")
        try scheduler.syncCursors()
        #expect(try scheduler.nextWake() == date(2026, 11, 29, 11, 0), "the next pass wrote it")
    }
}

@Suite struct AlertRecoveryRollbackTests {
    /// A start-up recovery whose transaction is rolled back is run again by the next pass:
    /// the scheduler records it as done only after its commit. Recording it inside the
    /// transaction left the interrupted delivery `sending` until the next restart.
    @Test func aRolledBackRecoveryRunsAgain() async throws {
        let harness = try SchedulerHarness()
        let task = try harness.task("Interrupted", due: date(2026, 11, 29, 10, 16), alerts: ["due"])
        harness.clock.advance(by: 60)
        harness.channel.hang(true)
        let killed = Task { [scheduler = harness.scheduler] in
            try scheduler.syncCursors()
            try scheduler.fireDue()
            try await scheduler.deliverPending()
        }
        try await waitUntil { harness.sent(task).count == 2 }
        harness.channel.hang(false)
        try harness.restart()
        if TestDatabase.isPostgreSQL { harness.clock.advance(by: AlertScheduler.claimLease) }
        let scheduler = harness.scheduler, container = harness.slate.container, now = harness.clock.now
        await #expect(throws: AlertPassRollbackTests.Rollback.self) {
            _ = try await BoardThreads.shared.write(to: container) { () throws -> Int in
                try scheduler.recoverInterrupted(now: now)
                throw AlertPassRollbackTests.Rollback()
            }
        }
        try await harness.pass()
        #expect(harness.sent(task).count == 4, "the next pass recovered the interrupted deliveries and sent each once more")
        let again = harness.sent(task).suffix(2)
        #expect(again.allSatisfy { $0.mayBeRepeat }, "marked as a possible repeat")
        harness.channel.release()
        _ = await killed.result
    }
}

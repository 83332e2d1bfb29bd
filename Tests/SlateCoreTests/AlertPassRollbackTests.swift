import Foundation
@testable import SlateCore
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

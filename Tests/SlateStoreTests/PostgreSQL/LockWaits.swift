import Foundation
@testable import SlateStore

extension PostgreSQLDatabase {
    /// Polls `pg_stat_activity` until the backend `pid` waits on a lock, for up to `seconds`;
    /// says whether it did. Other tests' writers may wait too: only that backend counts.
    func seesWaitingOnALock(_ pid: DatabaseValue, within seconds: TimeInterval = 4) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try scalar("SELECT count(*) FROM pg_stat_activity WHERE pid = ? AND wait_event_type = 'Lock'", [pid])
                .flatMap(Int.fromDatabaseValue) == 1 { return true }
        }
        return false
    }
}

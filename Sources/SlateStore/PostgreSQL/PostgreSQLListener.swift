import CPostgreSQL
import Foundation
import Synchronization

/// Hears other processes' commits on a PostgreSQL store: every write transaction sends
/// `pg_notify` with its store sequence and what it changed (`ChangeLog.announce`, at the end
/// of the write, delivered at COMMIT, dropped on rollback), and a connection of its own
/// LISTENs.
///
/// A notification is a doorbell, and often more: a commit's own announcement
/// (`CommitAnnouncement`) says what it changed, and the listener keeps what it heard for
/// `ModelContainer.publishAnnouncedChanges`. Whatever was not heard in full is read from the
/// commit log (`publishExternalChanges`), so one missed while the connection was down loses
/// nothing. After a reconnect the listener says "look" at once, as anything may have
/// happened, and what it heard before counts for nothing until the log was read.
final class PostgreSQLListener: Sendable {
    /// The listening connection.
    ///
    /// `@unchecked Sendable`: one thread waits on it at a time (the watcher's); the state's
    /// lock guards replacing it, and it is closed only once, when dropped or replaced.
    private final class Connection: @unchecked Sendable {
        let handle: OpaquePointer
        init(_ handle: OpaquePointer) { self.handle = handle }
        deinit { PQfinish(handle) }
    }

    private struct State {
        var connection: Connection?
        /// A reconnect happened since the last wait: the caller should look.
        var reconnected = false
        var nextAttempt = Date.distantPast
        /// Announcements heard since the last `takeHeard`, by sequence (one per commit).
        var heard: [Int: CommitAnnouncement] = [:]
        /// Something may have been missed since the last `takeHeard` (a reconnect, or more
        /// heard than is kept): the commit log must be read.
        var missedSome = false
    }

    /// The most announcements kept between two looks; past it only the log is read.
    static let heardLimit = 4_096

    private let location: PostgreSQLLocation
    private let state = Mutex(State())

    /// The channel a store's commits are announced on: one per schema (a name of at most
    /// 63 bytes, whatever the schema's).
    static func channelSQL() -> String { "'slate_' || md5(current_schema())" }

    init(location: PostgreSQLLocation) {
        self.location = location
    }

    /// Waits until a commit is announced or `timeout` passes; true when the caller should
    /// read the commit log (a notification arrived, or the connection was made again).
    /// Blocking: call it from a thread of its own.
    func wait(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            // The lock is held only to take the connection and to drain it, never while waiting.
            let (held, shouldLook) = state.withLock { state -> (Connection?, Bool) in
                if state.connection == nil, Date() >= state.nextAttempt { connect(&state) }
                defer { state.reconnected = false }
                if state.reconnected { state.missedSome = true }
                return (state.connection, state.reconnected)
            }
            if shouldLook { return true }
            let remaining = deadline.timeIntervalSinceNow
            guard let held else {
                if remaining <= 0 { return false }
                Thread.sleep(forTimeInterval: min(remaining, 0.25))
                continue
            }
            if drain(held) { return true }
            guard remaining > 0 else { return false }
            var descriptor = pollfd(fd: PQsocket(held.handle), events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0, errno != EINTR { drop(held) }
            if ready > 0 {
                guard PQconsumeInput(held.handle) == 1 else {
                    drop(held)
                    continue
                }
                if drain(held) { return true }
            }
        }
    }

    /// What was heard since the last call, and whether that may not be all.
    func takeHeard() -> (heard: [Int: CommitAnnouncement], complete: Bool) {
        state.withLock { state in
            defer {
                state.heard.removeAll(keepingCapacity: true)
                state.missedSome = false
            }
            return (state.heard, !state.missedSome)
        }
    }

    /// Takes every waiting notification; true when there was one.
    private func drain(_ connection: Connection) -> Bool {
        var announcements: [CommitAnnouncement] = []
        var heard = false
        while let notification = PQnotifies(connection.handle) {
            heard = true
            if let extra = notification.pointee.extra, let announcement = CommitAnnouncement(payload: String(cString: extra)) {
                announcements.append(announcement)
            }
            PQfreemem(notification)
        }
        if heard {
            state.withLock { state in
                for announcement in announcements { state.heard[announcement.sequence] = announcement }
                if state.heard.count > Self.heardLimit {
                    state.heard.removeAll()
                    state.missedSome = true
                }
            }
        }
        if PQstatus(connection.handle) != CONNECTION_OK { drop(connection) }
        return heard
    }

    private func drop(_ connection: Connection) {
        state.withLock { state in
            guard state.connection === connection else { return }
            state.connection = nil
            state.nextAttempt = Date().addingTimeInterval(0.5)
        }
    }

    private func connect(_ state: inout State) {
        guard let connection = try? location.connect() else {
            state.nextAttempt = Date().addingTimeInterval(0.5)
            return
        }
        slate_pg_silence_notices(connection)
        // The server names the channel, as the writers' pg_notify does.
        let named = PQexec(connection, "SELECT \(Self.channelSQL())")
        let channel = named.flatMap { PQresultStatus($0) == PGRES_TUPLES_OK && PQntuples($0) == 1 ? String(cString: PQgetvalue($0, 0, 0)) : nil }
        PQclear(named)
        let result = channel.map { PQexec(connection, "LISTEN \(quote($0))") } ?? nil
        let listening = result.map { PQresultStatus($0) == PGRES_COMMAND_OK } ?? false
        PQclear(result)
        guard listening else {
            PQfinish(connection)
            state.nextAttempt = Date().addingTimeInterval(0.5)
            return
        }
        state.connection = Connection(connection)
        state.reconnected = true
    }
}

import Foundation
import SlateCore
import Synchronization

/// Limits sign-in attempts, atomically and in bounded memory.
///
/// Four limits, each over a sliding ``Policy/window``:
/// - failures per account name and client address (`failuresPerAccountAndAddress`);
/// - failures per client address across every name (`failuresPerAddress`);
/// - attempts per client address, successful ones included (`attemptsPerAddress`);
/// - failures per account across addresses: past `accountFailuresBeforeBackoff`, each
///   further evaluation waits twice as long as the last (up to `maximumBackoff`). An
///   address that signed in to the account before is exempt, so an attacker spreading
///   guesses over many addresses slows the guessing, not the account's owner.
///
/// IPv6 addresses count by their /64 prefix (one subscriber's network). An attempt is
/// counted as a failure from ``begin(name:address:now:)`` until ``finish(_:succeeded:now:)``
/// says otherwise, so parallel attempts never get more evaluations than the limit.
/// At most ``Policy/capacity`` entries are kept: expired ones are dropped first, then the
/// least recently used.
///
/// With a ``SignInLedger`` (several nodes on one PostgreSQL database) the entries live in
/// the database instead, so every node counts every attempt; expired ones are deleted once
/// a minute.
final class LoginLimiter: Sendable {
    /// The limits; the defaults suit a small self-hosted service.
    struct Policy: Sendable {
        var failuresPerAccountAndAddress = 5
        var failuresPerAddress = 20
        var attemptsPerAddress = 60
        var accountFailuresBeforeBackoff = 10
        var maximumBackoff: TimeInterval = 15 * 60
        var window: TimeInterval = 15 * 60
        /// Addresses that signed in to an account are remembered this long.
        var knownAddressLifetime: TimeInterval = 30 * 86_400
        var capacity = 10_000
    }

    /// An attempt that may be evaluated; hand it back to ``finish(_:succeeded:now:)``.
    struct Attempt: Sendable {
        let account: String
        let network: String
    }

    enum Decision: Sendable {
        case allowed(Attempt)
        case refused(retryAfter: Int)
    }

    /// Recent events (failures, or attempts for the attempt counter), oldest first, at most
    /// as many as the largest limit needs; attempts begun and not finished; last use.
    private typealias Entry = SignInEntry

    private struct Table {
        var entries: [String: Entry] = [:]
        var lastPurge = Date.distantPast
    }

    let policy: Policy
    private let table = Mutex(Table())
    private let ledger: SignInLedger?

    init(policy: Policy = Policy(), ledger: SignInLedger? = nil) {
        self.policy = policy
        self.ledger = ledger
    }

    /// Runs `body` on the entries of `keys`: the in-memory table (purged when due or full),
    /// or the database's entries of those keys.
    private func withEntries<T>(_ keys: Keys, now: Date, purging: Bool, _ body: (inout [String: Entry]) -> T) throws -> T {
        guard let ledger else {
            return table.withLock { state in
                if purging, state.entries.count + Self.keysPerAttempt > policy.capacity || now.timeIntervalSince(state.lastPurge) > 60 {
                    purge(&state.entries, now: now)
                    state.lastPurge = now
                }
                return body(&state.entries)
            }
        }
        let due = purging && table.withLock { state in
            defer { if now.timeIntervalSince(state.lastPurge) > 60 { state.lastPurge = now } }
            return now.timeIntervalSince(state.lastPurge) > 60
        }
        if due {
            try ledger.purge(before: now.addingTimeInterval(-policy.window), keeping: "k ",
                             until: now.addingTimeInterval(-policy.knownAddressLifetime))
        }
        return try ledger.update(keys: keys.all, body)
    }

    /// How many entries are kept (for tests and bounds).
    var entryCount: Int { table.withLock { $0.entries.count } }

    /// Entries one attempt can add.
    private static let keysPerAttempt = 5

    /// Reserves an attempt, or says how many seconds to wait. Throws only when the entries
    /// live in the database and it cannot be reached (the attempt is then refused).
    func begin(name: String, address: String, now: Date) throws -> Decision {
        let account = name.lowercased()
        let network = Self.network(of: address)
        let keys = Keys(account: account, network: network)
        return try withEntries(keys, now: now, purging: true) { entries in
            let table = entries
            var waits: [TimeInterval] = []
            waits.append(wait(table[keys.pair], limit: policy.failuresPerAccountAndAddress, now: now))
            waits.append(wait(table[keys.address], limit: policy.failuresPerAddress, now: now))
            waits.append(wait(table[keys.attempts], limit: policy.attemptsPerAddress, now: now, countPending: false))
            if table[keys.known].map({ now.timeIntervalSince($0.lastUsed) < policy.knownAddressLifetime }) != true {
                waits.append(backoff(table[keys.account], now: now))
            }
            if let longest = waits.max(), longest > 0 {
                return .refused(retryAfter: max(1, Int(longest.rounded(.up))))
            }
            for key in [keys.pair, keys.address, keys.account] { update(&entries, key, now: now) { $0.pending += 1 } }
            update(&entries, keys.attempts, now: now) { $0.events.append(now) }
            return .allowed(Attempt(account: account, network: network))
        }
    }

    /// Records how an attempt ended. (In the database, when it cannot be reached the attempt
    /// stays counted as a failure until the window passes.)
    func finish(_ attempt: Attempt, succeeded: Bool, now: Date) {
        let keys = Keys(account: attempt.account, network: attempt.network)
        _ = try? withEntries(keys, now: now, purging: false) { entries in
            for key in [keys.pair, keys.address, keys.account] where entries[key] != nil {
                update(&entries, key, now: now) { entry in
                    entry.pending = max(0, entry.pending - 1)
                    if !succeeded { entry.events.append(now) }
                }
            }
            if succeeded {
                entries[keys.pair]?.events.removeAll()
                update(&entries, keys.known, now: now) { _ in }
            }
        }
    }

    /// Releases an attempt that was never evaluated (the password workers were busy).
    func abandon(_ attempt: Attempt) {
        let keys = Keys(account: attempt.account, network: attempt.network)
        _ = try? withEntries(keys, now: Date(), purging: false) { entries in
            for key in [keys.pair, keys.address, keys.account] {
                if let pending = entries[key]?.pending { entries[key]?.pending = max(0, pending - 1) }
            }
        }
    }

    private struct Keys {
        let pair, address, attempts, account, known: String
        var all: [String] { [pair, address, attempts, account, known] }
        init(account: String, network: String) {
            pair = "p " + account + " " + network
            address = "f " + network
            attempts = "a " + network
            self.account = "u " + account
            known = "k " + account + " " + network
        }
    }

    /// Seconds until one more event fits under `limit`, or 0.
    private func wait(_ entry: Entry?, limit: Int, now: Date, countPending: Bool = true) -> TimeInterval {
        guard let entry else { return 0 }
        let recent = entry.events.filter { now.timeIntervalSince($0) < policy.window }
        let used = recent.count + (countPending ? entry.pending : 0)
        guard used >= limit else { return 0 }
        guard recent.count >= limit, let blocking = recent.dropLast(limit - 1).last else { return 1 }
        return policy.window - now.timeIntervalSince(blocking)
    }

    /// The account-wide backoff: 0 below the threshold, then 1, 2, 4 … seconds after the last failure.
    private func backoff(_ entry: Entry?, now: Date) -> TimeInterval {
        guard let entry else { return 0 }
        let recent = entry.events.filter { now.timeIntervalSince($0) < policy.window }
        let excess = recent.count - policy.accountFailuresBeforeBackoff
        guard excess >= 0 else { return 0 }
        if entry.pending > 0 { return 1 }
        let delay = min(policy.maximumBackoff, pow(2, Double(min(excess, 30))))
        return delay - now.timeIntervalSince(recent.last ?? .distantPast)
    }

    private func update(_ table: inout [String: Entry], _ key: String, now: Date, _ change: (inout Entry) -> Void) {
        var entry = table[key] ?? Entry()
        change(&entry)
        let keep = max(policy.attemptsPerAddress, policy.failuresPerAddress, policy.accountFailuresBeforeBackoff + 32)
        if entry.events.count > keep { entry.events.removeFirst(entry.events.count - keep) }
        entry.lastUsed = now
        table[key] = entry
    }

    /// Drops entries with nothing recent; if that is not enough, the least recently used.
    private func purge(_ table: inout [String: Entry], now: Date) {
        table = table.filter { key, entry in
            if key.hasPrefix("k ") { return now.timeIntervalSince(entry.lastUsed) < policy.knownAddressLifetime }
            return entry.pending > 0 || now.timeIntervalSince(entry.lastUsed) < policy.window
        }
        let room = min(policy.capacity * 3 / 4, policy.capacity - 2 * Self.keysPerAttempt)
        guard table.count > room else { return }
        let oldest = table.filter { $0.value.pending == 0 }.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (key, _) in oldest.prefix(table.count - room) { table.removeValue(forKey: key) }
    }

    /// The address itself for IPv4; the /64 prefix for IPv6.
    static func network(of address: String) -> String {
        guard address.contains(":") else { return address }
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        return withUnsafeBytes(of: &bytes) { raw in
            stride(from: 0, to: 8, by: 2).map { String(UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]), radix: 16) }.joined(separator: ":") + "::/64"
        }
    }
}

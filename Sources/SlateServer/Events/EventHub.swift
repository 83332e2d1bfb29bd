import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// Every open event stream of one API, fed from one subscription to the board's changes.
///
/// Each change is turned into its `change` event once per account it concerns (the bytes
/// come from ``EventCache``) and written to that account's streams right here, one call
/// each: no subscription, relay task or event encoding per stream. With 10,000 streams a
/// change used to wake 40,000 tasks and build 10,000 copies of the change on the way.
final class EventHub: Sendable {
    private struct State {
        var listeners: [UUID: [ObjectIdentifier: EventListener]] = [:]
        var relay: Task<Void, Never>?
    }

    private let container: BoardStore
    private let recentEvents = EventCache()
    private let state = Mutex(State())

    init(container: BoardStore) { self.container = container }

    deinit { state.withLock { $0.relay?.cancel() } }

    /// Starts sending the account's changes to `listener`; the hub subscribes to the board
    /// on the first listener. Changes that arrive before `listener.open` are held by it.
    func add(_ listener: EventListener) {
        let subscribe = state.withLock { state -> Bool in
            state.listeners[listener.accountID, default: [:]][ObjectIdentifier(listener)] = listener
            return state.relay == nil
        }
        guard subscribe else { return }
        // Subscribed before the task starts, so nothing committed after `add` returns is missed.
        let changes = container.boardChanges()
        let relay = Task { [weak self] in
            for await change in changes {
                guard let self else { return }
                await self.dispatch(change)
            }
        }
        let extra = state.withLock { state -> Task<Void, Never>? in
            guard state.relay == nil else { return relay }
            state.relay = relay
            return nil
        }
        extra?.cancel()
    }

    func remove(_ listener: EventListener) {
        state.withLock { state in
            state.listeners[listener.accountID]?[ObjectIdentifier(listener)] = nil
            if state.listeners[listener.accountID]?.isEmpty == true { state.listeners[listener.accountID] = nil }
        }
    }

    /// Streams open now (for tests).
    var count: Int { state.withLock { $0.listeners.values.reduce(0) { $0 + $1.count } } }

    private func dispatch(_ change: BoardChange) async {
        let concerned = state.withLock { state in
            state.listeners.filter { change.concerns(account: $0.key) }.mapValues { Array($0.values) }
        }
        for (accountID, listeners) in concerned {
            if change.isResync {
                // A resync names no account's revision: the account's current one.
                let slate = Slate(container: container, accountID: accountID)
                let revision = (try? await slate.read { try $0.revision() }) ?? 0
                let event = EventsController.resyncEvent(revision: revision).encoded
                for listener in listeners { listener.deliver(event, revision: nil, recheck: change.touchesAccounts) }
                continue
            }
            guard let revision = change.revision(for: accountID) else { continue }
            let event = recentEvents.event(for: change, revision: revision).encoded
            for listener in listeners { listener.deliver(event, revision: revision, recheck: change.touchesAccounts) }
        }
        // A change of accounts or credentials may end streams of accounts it did not touch
        // (a password change signs out every session of its account, whose rows it touched;
        // a token of another account is checked the same way, at the cost of one check).
        if change.touchesAccounts {
            let others = state.withLock { state in
                state.listeners.filter { !change.concerns(account: $0.key) }.values.flatMap(\.values)
            }
            for listener in others { listener.deliver(nil, revision: nil, recheck: true) }
        }
    }
}

/// One open event stream as the hub sees it: the account, the bytes it is sent, and what
/// it is still waiting for.
///
/// Events are held (in order) until the stream has sent its `hello` (`open`), and while its
/// credential is being checked again after a change of accounts or credentials, so that a
/// stream never shows a change before the revision it started from, nor after its
/// credential stopped working.
final class EventListener: Sendable {
    let accountID: UUID
    /// The stream's response: written here, on the hub's thread, straight to its connection.
    private let output: StreamChannel
    /// Checks the stream's credential again: true when it still names the account.
    private let stillAuthorised: @Sendable () async -> Bool

    private typealias Item = (event: Data?, revision: Int?, recheck: Bool)

    private struct State {
        /// The revision the stream's `hello` named; nil until it is sent.
        var start: Int?
        var checking = false
        var held: [Item] = []
        var finished = false
    }

    private let state = Mutex(State())

    init(accountID: UUID, output: StreamChannel, stillAuthorised: @escaping @Sendable () async -> Bool) {
        self.accountID = accountID
        self.output = output
        self.stillAuthorised = stillAuthorised
    }

    /// Sends the opening frames (hello, sync) and then what arrived since `revision`.
    func open(at revision: Int, with frames: Data) {
        let check = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            output.send(frames)
            state.start = revision
            return flush(&state)
        }
        if check { checkCredential() }
    }

    /// Sends `event` (of the account's `revision`; nil for a resync) unless the stream
    /// started after it; with `recheck`, only once the credential is found still valid.
    func deliver(_ event: Data?, revision: Int?, recheck: Bool) {
        if state.withLock({ enqueue((event, revision, recheck), in: &$0) }) { checkCredential() }
    }

    /// Sends or holds one item, in order; true when it starts a credential check.
    private func enqueue(_ item: Item, in state: inout State) -> Bool {
        guard !state.finished else { return false }
        guard let start = state.start, !state.checking else {
            state.held.append(item)
            return false
        }
        if item.recheck {
            state.checking = true
            state.held.append((item.event, item.revision, false))
            return true
        }
        if let event = item.event, item.revision.map({ $0 > start }) ?? true { output.send(event) }
        return false
    }

    /// Sends what was held, until an item starts another check.
    private func flush(_ state: inout State) -> Bool {
        let items = state.held
        state.held = []
        for (index, item) in items.enumerated() where enqueue(item, in: &state) {
            state.held += items[(index + 1)...]
            return true
        }
        return false
    }

    private func checkCredential() {
        Task {
            let valid = await stillAuthorised()
            let again = state.withLock { state -> Bool in
                state.checking = false
                guard valid else {
                    state.held = []
                    return false
                }
                return flush(&state)
            }
            if !valid { finish() } else if again { checkCredential() }
        }
    }

    /// Sends `frame` at once, whatever is held (an alert, the heartbeat's neighbours).
    func send(_ frame: Data) {
        state.withLock { state in
            guard !state.finished else { return }
            output.send(frame)
        }
    }

    /// Ends the stream.
    func finish() {
        state.withLock { $0.finished = true }
        output.finish()
    }
}

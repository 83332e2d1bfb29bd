import Foundation
import SlateCore
import SlateHTTP
import SlateStore
import Synchronization
import TestDatabases
import Testing
@testable import SlateServer

/// What an unauthenticated client can do through `POST /api/v1/session`: bounded inputs,
/// bounded memory, no timing difference between unknown names and wrong passwords, limits
/// per address and per account that the real owner can get past, and a bounded queue for
/// the password hashing.
@Suite struct SignInLimitTests {
    let container = try! Slate.openContainer(path: TestDatabase.freshStore())

    func signIn(_ api: SlateAPI, _ name: String, _ password: String, from address: String = "127.0.0.1") async throws -> (Int, HTTPHeaders, [String: Any]) {
        var request = Request(method: .post, target: "/api/v1/session", headers: ["Content-Type": "application/json"],
                              body: try JSONSerialization.data(withJSONObject: ["name": name, "password": password]))
        request.remoteAddress = address
        let response = try await api.router.respond(to: request)
        let object = (try? JSONSerialization.jsonObject(with: response.bodyData ?? Data()) as? [String: Any]) ?? [:]
        return (response.status.code, response.headers, object)
    }

    func errorField(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["field"] as? String }

    /// The guard `slate serve` makes: its counts in memory on SQLite, in the database on
    /// PostgreSQL (`SignInLedger`), so these tests hold both to the same limits.
    func serverGuard(_ policy: LoginLimiter.Policy = .init()) -> SignInGuard {
        SignInGuard(limiter: LoginLimiter(policy: policy, ledger: SignInLedger(store: container)))
    }

    @Test func overlongNamesAndPasswordsAreRefusedBeforeAnythingIsStored() async throws {
        let guardian = SignInGuard()
        let api = SlateAPI(container: container, secureCookies: false, signIn: guardian)
        let name = try await signIn(api, String(repeating: "n", count: 1 << 20), "whatever")
        #expect(name.0 == 400 && errorField(name.2) == "name")
        let password = try await signIn(api, "ana", String(repeating: "p", count: SignInGuard.maximumPasswordBytes + 1))
        #expect(password.0 == 400 && errorField(password.2) == "password")
        #expect(guardian.limiter.entryCount == 0, "nothing about a refused attempt is kept")
        #expect(guardian.evaluations == 0, "no hashing for a refused attempt")
    }

    @Test func theLimiterForgetsOldFailuresAndNeverHoldsMoreThanItsCapacity() throws {
        let limiter = LoginLimiter(policy: .init(capacity: 200))
        let start = Date(timeIntervalSince1970: 1_000_000)
        for index in 0..<2_000 {
            let address = "10.\(index / 250).\(index % 250).1"
            guard case .allowed(let attempt) = try limiter.begin(name: "name\(index)", address: address, now: start) else {
                Issue.record("attempt \(index) was refused")
                return
            }
            limiter.finish(attempt, succeeded: false, now: start)
            #expect(limiter.entryCount <= 200)
        }
        let later = start.addingTimeInterval(limiter.policy.window + 1)
        if case .allowed(let attempt) = try limiter.begin(name: "fresh", address: "10.200.0.1", now: later) {
            limiter.finish(attempt, succeeded: true, now: later)
        }
        #expect(limiter.entryCount < 10, "failures older than the window are dropped")
    }

    @Test func anUnknownNameCostsTheSamePasswordEvaluationAsAWrongPassword() async throws {
        _ = try await offPool { [container] in try AccountAdministration(container: container, strength: .minimal).addUser(named: "ana", password: "correct horse battery") }
        let guardian = serverGuard()
        let api = SlateAPI(container: container, secureCookies: false, signIn: guardian)
        #expect(try await signIn(api, "ana", "wrong password").0 == 401)
        #expect(guardian.evaluations == 1)
        #expect(try await signIn(api, "nobody", "wrong password", from: "10.0.0.9").0 == 401)
        #expect(guardian.evaluations == 2, "an unknown name is verified against a dummy hash too")
    }

    @Test func oneAddressTryingManyNamesIsLimited() async throws {
        let guardian = serverGuard()
        let api = SlateAPI(container: container, secureCookies: false, signIn: guardian)
        let limit = guardian.limiter.policy.failuresPerAddress
        for index in 0..<limit {
            #expect(try await signIn(api, "name\(index)", "guess").0 == 401)
        }
        let next = try await signIn(api, "another", "guess")
        #expect(next.0 == 429 && next.1["Retry-After"] != nil)
        #expect(try await signIn(api, "another", "guess", from: "10.0.0.2").0 == 401, "another address is not limited")
    }

    @Test func manyAddressesGuessingOneAccountAreSlowedButTheOwnerStillGetsIn() async throws {
        let password = try await offPool { [container] in try AccountAdministration(container: container, strength: .minimal).addUser(named: "ana", password: "correct horse battery") }
        let guardian = serverGuard()
        let api = SlateAPI(container: container, secureCookies: false, signIn: guardian)
        #expect(try await signIn(api, "ana", password, from: "192.168.1.20").0 == 200, "the owner's usual address")
        let threshold = guardian.limiter.policy.accountFailuresBeforeBackoff
        for index in 0..<threshold {
            #expect(try await signIn(api, "ana", "guess", from: "10.\(index).0.1").0 == 401)
        }
        let slowed = try await signIn(api, "ana", "guess", from: "10.99.0.1")
        #expect(slowed.0 == 429 && slowed.1["Retry-After"] != nil, "a new address waits once the account is under attack")
        #expect(guardian.evaluations == threshold + 1)
        #expect(try await signIn(api, "ana", password, from: "192.168.1.20").0 == 200, "the owner's known address is not locked out")
    }

    @Test func parallelAttemptsGetNoMoreEvaluationsThanTheLimit() async throws {
        _ = try await offPool { [container] in try AccountAdministration(container: container, strength: .minimal).addUser(named: "ana", password: "correct horse battery") }
        let guardian = serverGuard()
        let api = SlateAPI(container: container, secureCookies: false, signIn: guardian)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 { group.addTask { try await signIn(api, "ana", "guess").0 } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let limit = guardian.limiter.policy.failuresPerAccountAndAddress
        #expect(statuses.filter { $0 == 401 }.count <= limit)
        #expect(statuses.allSatisfy { [401, 429, 503].contains($0) })
        #expect(guardian.evaluations <= limit)
    }

    @Test func successfulSignInsAreLimitedToo() async throws {
        let password = try await offPool { [container] in try AccountAdministration(container: container, strength: .minimal).addUser(named: "ana", password: "correct horse battery") }
        let guardian = serverGuard(.init(attemptsPerAddress: 3))
        let api = SlateAPI(container: container, secureCookies: false, signIn: guardian)
        for _ in 0..<3 { #expect(try await signIn(api, "ana", password).0 == 200) }
        let fourth = try await signIn(api, "ana", password)
        #expect(fourth.0 == 429 && fourth.1["Retry-After"] != nil)
    }

    @Test func hashingRunsOnABoundedQueueAndExcessIsAnswered503() async throws {
        let gate = DispatchSemaphore(value: 0)
        let workers = PasswordWorkers(threads: 1, queueLimit: 1)
        defer { workers.stop() }
        let first = Task { try await workers.run { gate.wait(); return 1 } }
        let second = Task { try await workers.run { 2 } }
        // Both are accepted (one running, one queued) before a third is refused.
        let deadline = ContinuousClock.now + .seconds(10)
        while workers.load < 2, ContinuousClock.now < deadline { await Task.yield() }
        #expect(workers.load == 2)
        await #expect(throws: PasswordWorkers.Busy.self) { try await workers.run { 3 } }

        _ = try await offPool { [container] in try AccountAdministration(container: container, strength: .minimal).addUser(named: "ana", password: "correct horse battery") }
        let api = SlateAPI(container: container, secureCookies: false, signIn: SignInGuard(workers: workers))
        let busy = try await signIn(api, "ana", "correct horse battery")
        #expect(busy.0 == 503 && busy.1["Retry-After"] != nil)
        gate.signal()
        let results = (try await first.value, try await second.value)
        #expect(results == (1, 2))
    }

    @Test func expiredSessionsAreDeletedWhenSomeoneSignsIn() async throws {
        let password = try await offPool { [container] in try AccountAdministration(container: container, strength: .minimal).addUser(named: "ana", password: "correct horse battery") }
        let directory = AccountDirectory(container: container)
        let account = try #require(try directory.account(named: "ana"))
        try directory.addSecret(.session, digest: "old", for: account.id, label: "", now: Date(timeIntervalSince1970: 0),
                                expires: Date(timeIntervalSince1970: 60))
        let api = SlateAPI(container: container, secureCookies: false, signIn: SignInGuard())
        #expect(try await signIn(api, "ana", password).0 == 200)
        let sessions = try ModelContext(container).fetch(FetchDescriptor<Credential>()).filter { $0.kind == .session }
        #expect(sessions.count == 1 && sessions.first?.secretHash != "old")
    }

    /// Two nodes on one PostgreSQL database: failures through either count against the
    /// same limit, so spreading guesses over the nodes gains nothing.
    @Test(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
    func everyNodeCountsTheSameAttempts() async throws {
        let schema = TestDatabase.freshStore()
        let nodes = try (0..<2).map { _ in try Slate.openContainer(path: schema) }
        let apis = nodes.map { SlateAPI(container: $0, secureCookies: false,
                                         signIn: SignInGuard(limiter: LoginLimiter(ledger: SignInLedger(store: $0)))) }
        let limit = LoginLimiter.Policy().failuresPerAddress
        for index in 0..<limit {
            #expect(try await signIn(apis[index % 2], "name\(index)", "guess").0 == 401)
        }
        for api in apis {
            let next = try await signIn(api, "another", "guess")
            #expect(next.0 == 429 && next.1["Retry-After"] != nil)
        }
        #expect(try await signIn(apis[1], "another", "guess", from: "10.0.0.2").0 == 401, "another address is not limited")
    }
}

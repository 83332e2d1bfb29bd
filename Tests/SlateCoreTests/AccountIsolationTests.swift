import Foundation
@testable import SlateCore
import SlateStore
import Testing

/// What one account can learn of another through numbers and ids: nothing.
@Suite struct AccountIsolationTests {
    /// Two accounts in one database, with the same clock.
    private func twoAccounts() throws -> (ana: Slate, bob: Slate) {
        let (ana, clock) = try makeSlate()
        let bobAccount = try AccountDirectory(container: ana.container).createAccount(named: "bob", now: clock.now)
        let bob = Slate(container: ana.container, accountID: bobAccount.id, calendar: testCalendar, clock: { clock.now })
        return (ana, bob)
    }

    @Test func taskNumbersStartAtOneInEachAccount() throws {
        let (ana, bob) = try twoAccounts()
        for title in ["One", "Two", "Three"] { try ana.addTask(TaskDraft(title: title)) }
        #expect(try bob.addTask(TaskDraft(title: "Bob's first")).number == 1)
        #expect(try ana.addTask(TaskDraft(title: "Four")).number == 4)
        #expect(try bob.task(reference: "1").model.title == "Bob's first")
        #expect(try ana.task(reference: "#1").model.title == "One")
        // A number that only the other account has is not found.
        #expect(throws: SlateError.notFound("task #4")) { try bob.task(reference: "#4") }
    }

    /// An id prefix is looked up among the account's own tasks: other accounts' tasks with
    /// the same prefix (and lower ids) neither hide the one asked for nor count as matches.
    @Test func anIdPrefixFindsTheAccountsOwnTaskAmongOthers() throws {
        let (ana, bob) = try twoAccounts()
        // Stored directly, with chosen ids (an import in a shared database gives new ones).
        func storing(_ slate: Slate, _ tasks: [(id: String, number: Int, title: String)]) throws {
            let context = ModelContext(slate.container)
            for task in tasks {
                context.insert(TaskItem(id: try #require(UUID(uuidString: task.id)), number: task.number, accountID: slate.accountID, title: task.title))
            }
            try context.save()
        }
        try storing(ana, (1...7).map { ("abcd0000-0000-4000-8000-00000000000\($0)", $0, "Ana's \($0)") })
        try storing(bob, [("abcd0000-0000-4000-8000-00000000000f", 1, "Bob's only")])

        #expect(try bob.task(reference: "abcd").model.title == "Bob's only")
        #expect(try bob.task(reference: "ABCD0000").model.title == "Bob's only")
        let message = "'abcd' matches more than 5 tasks: #1 “Ana's 1”, #2 “Ana's 2”, #3 “Ana's 3”, #4 “Ana's 4”, #5 “Ana's 5”, …; give more of the id or use the number."
        #expect(throws: SlateError.ambiguous("abcd", matches: (1...5).map { "#\($0) “Ana's \($0)”" }, more: true)) { try ana.task(reference: "abcd") }
        do { _ = try ana.task(reference: "abcd"); Issue.record("no error") } catch { #expect("\(error)" == message) }
        try ana.deleteTasks(try ana.tasks().filter { $0.title != "Ana's 1" && $0.title != "Ana's 2" }.map(\.id))
        #expect(throws: SlateError.ambiguous("abcd", matches: ["#1 “Ana's 1”", "#2 “Ana's 2”"], more: false)) { try ana.task(reference: "abcd") }
    }

    @Test func anImportKeepsWantedNumbersFreeInItsOwnAccount() throws {
        let (ana, bob) = try twoAccounts()
        try ana.addTask(TaskDraft(title: "Ana's #1"))
        try ana.addTask(TaskDraft(title: "Ana's #2"))
        try bob.importData(Data(#"{"format":"slate","tasks":[{"title":"Bob's #2","number":2}]}"#.utf8), format: .json)
        #expect(try bob.task(reference: "2").model.title == "Bob's #2")
    }

    /// Importing a file with another account's task id must look exactly like importing
    /// one with an id nobody uses: the result depends on the importing account only.
    @Test func anImportDoesNotRevealWhetherAnIdExistsInAnotherAccount() throws {
        let (ana, bob) = try twoAccounts()
        let secret = try ana.addTask(TaskDraft(title: "Ana's secret"))
        let unused = UUID()
        func imported(_ id: UUID) throws -> UUID {
            let file = #"{"format":"slate","tasks":[{"id":"\#(id.uuidString.lowercased())","title":"Probe"}]}"#
            let summary = try bob.importData(Data(file.utf8), format: .json)
            #expect(summary == ImportSummary(tasksCreated: 1))
            let probe = try #require(try bob.tasks().first { $0.title == "Probe" })
            try bob.deleteTasks([probe.id])
            return probe.id
        }
        let taken = try imported(secret.id)
        let free = try imported(unused)
        #expect(taken != secret.id && free != unused, "neither file id is taken over: both are mapped the same way")
        #expect(try imported(unused) == free, "the mapping is stable: importing the file again finds the same task")
        #expect(try ana.task(id: secret.id).model.title == "Ana's secret")
    }
}

@Suite struct ImportedIDTests {
    @Test func sha256MatchesTheStandardVectors() {
        func hex(_ text: String) -> String { sha256(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}

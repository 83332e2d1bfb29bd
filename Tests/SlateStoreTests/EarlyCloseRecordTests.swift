import Foundation
import TestDatabases
import Testing

@testable import SlateStore

/// A snapshot that says it usually reads nothing more closes early only while that has been
/// right often enough in this process (`EarlyCloseRecord`): under writes a GET's counts are
/// rarely kept, and every wrong guess costs a second run.
@Suite struct EarlyCloseRecordTests {
    @Test func wrongGuessesStopTheTryingExceptForOneInSixteenAndRightOnesBringItBack() {
        let record = EarlyCloseRecord()
        #expect(record.shouldTry())
        record.note(ranAgain: true)
        #expect(record.current == -3)
        let tries = (0..<64).filter { _ in record.shouldTry() }.count
        #expect(tries == 4, "one in sixteen keeps measuring")
        for _ in 0..<3 { record.note(ranAgain: false) }
        #expect(record.current == 0)
        #expect((0..<10).allSatisfy { _ in record.shouldTry() })
    }

    @Test func theScoreIsBoundedBothWays() {
        let record = EarlyCloseRecord()
        for _ in 0..<1_000 { record.note(ranAgain: false) }
        #expect(record.current == EarlyCloseRecord.bound)
        for _ in 0..<1_000 { record.note(ranAgain: true) }
        #expect(record.current == -EarlyCloseRecord.bound)
        // Recovering from the bottom takes the right guesses of the probes, not forever.
        for _ in 0..<(EarlyCloseRecord.bound + 1) { record.note(ranAgain: false) }
        #expect(record.shouldTry())
    }

    @Test(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
    func aPostgreSQLSnapshotThatReadsMoreThanItSaidIsCountedAgainstClosingEarly() throws {
        let container = try ModelContainer(for: allModels, configuration: TestDatabase.configuration())
        let context = ModelContext(container)
        let item = Item(title: "Kept")
        context.insert(item)
        try context.save()
        guard case .postgreSQL(let pool) = container.pool else {
            Issue.record("a PostgreSQL store")
            return
        }
        let expected = ExpectedRead.revision(of: Item.self, id: item.id)
        // Right: the first statement and the read named ahead are all it reads.
        for _ in 0..<2 {
            try container.snapshot(expecting: [expected], usuallyNothingElse: true) {
                _ = try container.currentRevision()
                #expect(try ModelContext(container).revision(of: Item.self, id: item.id) != nil)
            }
        }
        #expect(pool.earlyCloses.current == 2)
        // Wrong: it reads the whole row too, so it runs again.
        var runs = 0
        let title = try container.snapshot(expecting: [expected], usuallyNothingElse: true) { () -> String? in
            runs += 1
            _ = try container.currentRevision()
            return try ModelContext(container).model(Item.self, id: item.id)?.title
        }
        #expect(title == "Kept" && runs == 2)
        #expect(pool.earlyCloses.current == -1)
    }
}

import CPostgreSQL
import Foundation
import TestDatabases
import Testing

@testable import SlateStore

/// A transaction's BEGIN travels with its first statement and a read's COMMIT is not waited
/// for (PostgreSQLDatabase+Transactions.swift): what a transaction means must not change.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct PostgreSQLRoundTripTests {
    /// A connection and a table of the test's own, in a schema no other test uses.
    func connection() throws -> (database: PostgreSQLDatabase, table: String) {
        let database = try PostgreSQLDatabase(location: PostgreSQLLocation(url: TestDatabase.postgreSQLURL!), lockTimeout: 5)
        let schema = "round_trip_\(UUID().uuidString.prefix(8).lowercased())"
        try database.execute("CREATE SCHEMA \(schema); CREATE TABLE \(schema).items (n bigint NOT NULL)")
        return (database, "\(schema).items")
    }

    func count(_ table: String, _ database: PostgreSQLDatabase) throws -> DatabaseValue? {
        try database.scalar("SELECT count(*) FROM \(table)", [])
    }

    @Test func aReadSeesOneSnapshotAndTheNextReadSeesLaterCommits() throws {
        let (reader, table) = try connection()
        let (writer, _) = try connection()
        try reader.readTransaction {
            #expect(try count(table, reader) == .integer(0))
            try writer.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(1)])
            // Committed meanwhile, but after this snapshot was taken by the first statement.
            #expect(try count(table, reader) == .integer(0))
        }
        // The first read's COMMIT went out unanswered; this read must be a new snapshot.
        #expect(try reader.readTransaction { try count(table, reader) } == .integer(1))
        #expect(try count(table, reader) == .integer(1))
    }

    @Test func aReadThatRunsNoStatementLeavesTheConnectionIdle() throws {
        let (database, table) = try connection()
        let value = try database.readTransaction { 42 }
        #expect(value == 42)
        #expect(!database.isInTransaction)
        #expect(PQtransactionStatus(database.connection) == PQTRANS_IDLE)
        #expect(try count(table, database) == .integer(0))
    }

    @Test func aReadsSnapshotIsReleasedOnTheServerWhileTheConnectionWaitsInThePool() throws {
        let (database, _) = try connection()
        let (admin, _) = try connection()
        let pid = try #require(try database.scalar("SELECT pg_backend_pid()", []))
        try database.readTransaction { _ = try database.scalar("SELECT 1", []) }
        // The COMMIT was sent, not waited for: the server still runs it by itself.
        let deadline = Date().addingTimeInterval(10)
        var state: DatabaseValue?
        repeat {
            state = try admin.scalar("SELECT state FROM pg_stat_activity WHERE pid = CAST(? AS integer)", [pid])
            if state == .text("idle") { break }
            usleep(5_000)
        } while Date() < deadline
        #expect(state == .text("idle"))
    }

    @Test func aFailingFirstStatementReportsItselfAndTheConnectionServesTheNextRead() throws {
        let (database, table) = try connection()
        #expect {
            try database.readTransaction { _ = try database.scalar("SELECT no_such_column FROM \(table)", []) }
        } throws: { error in
            "\(error)".contains("no_such_column")
        }
        #expect(!database.isInTransaction)
        #expect(try database.readTransaction { try count(table, database) } == .integer(0))
    }

    @Test func aWriteWhoseBeginTravelsWithItsFirstStatementCommitsOrRollsBackWhole() throws {
        let (database, table) = try connection()
        let (other, _) = try connection()
        try database.transaction {
            try database.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(1)])
            #expect(database.isInTransaction)
            // Not visible elsewhere before COMMIT: the first statement ran inside the transaction.
            #expect(try count(table, other) == .integer(0))
            try database.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(2)])
        }
        #expect(try count(table, other) == .integer(2))
        #expect {
            try database.transaction {
                try database.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(3)])
                try database.execute("INSERT INTO \(table) (n) VALUES (?)", [.text("not a number")])
            }
        } throws: { _ in true }
        #expect(!database.isInTransaction)
        #expect(try count(table, other) == .integer(2))
        #expect(try database.scalar("SELECT CAST(sum(n) AS bigint) FROM \(table)", []) == .integer(3))
    }

    @Test func anExpectedReadIsAnsweredFromTheFirstRoundTripWithinItsSnapshotOnly() throws {
        let (database, table) = try connection()
        let (writer, _) = try connection()
        try writer.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(7)])
        let read = ExpectedRead(sql: "SELECT count(*) FROM \(table) WHERE n = ?", arguments: [.integer(7)])
        try database.readTransaction(expecting: [read, read]) {
            #expect(try count(table, database) == .integer(1))
            #expect(database.expectedAnswers.count == 1, "sent with the first statement, once")
            try writer.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(7)])
            #expect(try database.scalar(read.sql, read.arguments) == .integer(1), "the snapshot's answer")
            #expect(database.expectedAnswers.isEmpty, "an answer is used once")
            #expect(try database.scalar(read.sql, read.arguments) == .integer(1), "asked again: read again, same snapshot")
        }
        // The next transaction expects nothing: a fresh read sees the second row.
        #expect(try database.readTransaction { try database.scalar(read.sql, read.arguments) } == .integer(2))
        // An expected read never made is dropped with its transaction.
        try database.readTransaction(expecting: [read]) { _ = try count(table, database) }
        #expect(database.expectedAnswers.isEmpty)
        #expect(try count(table, database) == .integer(2))
    }

    @Test func anExpectedReadThatCannotBePreparedIsNotSentAheadAndReportsItselfWhenAskedFor() throws {
        let (database, table) = try connection()
        let broken = ExpectedRead(sql: "SELECT no_such_column FROM \(table) WHERE n = ?", arguments: [.integer(1)])
        var first: DatabaseValue?
        #expect {
            try database.readTransaction(expecting: [broken]) {
                first = try count(table, database)
                #expect(database.expectedAnswers.isEmpty)
                _ = try database.scalar(broken.sql, broken.arguments)
            }
        } throws: { error in
            "\(error)".contains("no_such_column")
        }
        // The first statement's own answer is unaffected by the read that was named with it.
        #expect(first == .integer(0))
        #expect(database.expectedAnswers.isEmpty)
        #expect(try database.readTransaction { try count(table, database) } == .integer(0))
    }

    // MARK: A read closing early (`readTransaction(closingEarly:)`)

    @Test func aReadClosingEarlyEndsInItsFirstRoundTripAndStillAnswersWhatItReadAhead() throws {
        let (database, table) = try connection()
        let (writer, _) = try connection()
        try writer.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(7)])
        let read = ExpectedRead(sql: "SELECT count(*) FROM \(table) WHERE n = ?", arguments: [.integer(7)])
        // Both statements prepared first (each PREPARE is a round trip of its own).
        try database.readTransaction { _ = (try count(table, database), try database.scalar(read.sql, read.arguments)) }
        let before = database.roundTrips
        var runs = 0
        let answers = try database.readTransaction(expecting: [read], closingEarly: true) {
            runs += 1
            let total = try count(table, database)
            #expect(!database.isInTransaction, "the COMMIT went out with the first statement")
            try writer.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(7)])
            return (total, try database.scalar(read.sql, read.arguments))
        }
        #expect(answers.0 == .integer(1))
        #expect(answers.1 == .integer(1), "read ahead in the snapshot, before the second row")
        #expect(runs == 1)
        #expect(database.roundTrips == before + 1)
        #expect(database.earlyCloseRetries == 0)
        #expect(PQtransactionStatus(database.connection) == PQTRANS_IDLE)
        // Nothing in flight: the next statement is answered at once, and sees both rows.
        #expect(try count(table, database) == .integer(2))
    }

    @Test func aReadClosingEarlyThatReadsMoreRunsAgainInOneSnapshotThatStaysOpen() throws {
        let (reader, table) = try connection()
        let (writer, _) = try connection()
        var runs = 0
        let (first, second) = try reader.readTransaction(closingEarly: true) {
            runs += 1
            let first = try count(table, reader)
            // Committed after the first run's snapshot ended, before the second run began.
            if runs == 1 { try writer.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(1)]) }
            if runs == 2 {
                // Committed inside the second run's snapshot: not seen by it.
                try writer.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(2)])
            }
            return (first, try count(table, reader))
        }
        #expect(runs == 2)
        #expect(first == .integer(1) && second == .integer(1), "both reads of the run that counts from one snapshot")
        #expect(reader.earlyCloseRetries == 1)
        #expect(!reader.isInTransaction)
        #expect(try reader.readTransaction { try count(table, reader) } == .integer(2))
    }

    @Test func aReadClosingEarlyRunsAgainEvenWhenItsBodySwallowedTheRefusal() throws {
        let (database, table) = try connection()
        var runs = 0
        let total = try database.readTransaction(closingEarly: true) { () -> DatabaseValue? in
            runs += 1
            _ = try count(table, database)
            return try? count(table, database)
        }
        #expect(runs == 2)
        #expect(total == .integer(0), "the second run's answer, not the first run's nil")
    }

    @Test func aTransactionInsideAReadClosedEarlyRunsTheReadAgainInsteadOfBeginningOutsideIt() throws {
        let (database, table) = try connection()
        var runs = 0
        var nested: [Bool] = []
        let total = try database.readTransaction(closingEarly: true) { () -> DatabaseValue? in
            runs += 1
            let total = try count(table, database)
            // A transaction here must be part of the read (a savepoint of its snapshot), never a new one.
            try database.transaction { nested.append(database.isInTransaction && database.savepointDepth > 0) }
            return total
        }
        #expect(runs == 2)
        #expect(nested == [true], "only the second run got as far, inside its snapshot")
        #expect(total == .integer(0))
        #expect(!database.isInTransaction)
    }

    @Test func aReadClosingEarlyThatBeginsWithATransactionKeepsItsSnapshotOpenAndRunsOnce() throws {
        let (database, table) = try connection()
        var runs = 0
        let total = try database.readTransaction(closingEarly: true) { () -> DatabaseValue? in
            runs += 1
            return try database.transaction {
                let total = try count(table, database)
                #expect(database.isInTransaction, "no COMMIT went out with the savepoint's first statement")
                return total
            }
        }
        #expect(runs == 1)
        #expect(total == .integer(0))
        #expect(database.earlyCloseRetries == 0)
        #expect(!database.isInTransaction)
        #expect(try count(table, database) == .integer(0))
    }

    @Test func aReadClosingEarlyReportsItsOwnErrorsWithoutRunningAgain() throws {
        let (database, table) = try connection()
        struct Refused: Error {}
        var runs = 0
        #expect(throws: Refused.self) {
            try database.readTransaction(closingEarly: true) {
                runs += 1
                _ = try count(table, database)
                throw Refused()
            }
        }
        #expect(runs == 1)
        // A read ahead that fails keeps the COMMIT from running; it reports itself when asked.
        let broken = ExpectedRead(sql: "SELECT CAST(? AS integer) / 0", arguments: [.integer(1)])
        #expect {
            try database.readTransaction(expecting: [broken], closingEarly: true) {
                #expect(try count(table, database) == .integer(0))
                _ = try database.scalar(broken.sql, broken.arguments)
            }
        } throws: { error in
            "\(error)".contains("division by zero")
        }
        #expect(database.earlyCloseRetries == 0)
        #expect(try database.readTransaction(closingEarly: true) { try count(table, database) } == .integer(0))
        #expect(!database.isInTransaction)
    }

    @Test func aReadCanEndWithALaterStatementItNamesAndRunsAgainOnlyOnceWhenItReadsMore() throws {
        let (database, table) = try connection()
        let (writer, _) = try connection()
        try writer.execute("INSERT INTO \(table) (n) VALUES (?)", [.integer(7)])
        let read = ExpectedRead(sql: "SELECT count(*) FROM \(table) WHERE n = ?", arguments: [.integer(7)])
        let page = "SELECT CAST(sum(n) AS bigint) FROM \(table)"
        try database.readTransaction { _ = (try count(table, database), try database.scalar(page, []), try database.scalar(read.sql, read.arguments)) }
        let before = database.roundTrips
        let found = try database.readTransaction { () -> (DatabaseValue?, DatabaseValue?) in
            _ = try count(table, database)
            database.expectInRead([read], thenClosing: true)
            let sum = try database.scalar(page, [])
            #expect(!database.isInTransaction, "ended with the statement named")
            return (sum, try database.scalar(read.sql, read.arguments))
        }
        #expect(found.0 == .integer(7) && found.1 == .integer(1))
        #expect(database.roundTrips == before + 2, "the first statement, then the page with its read and the COMMIT")
        #expect(database.earlyCloseRetries == 0)

        // Reading more after it: the body runs again, where the same wish is not granted.
        var runs = 0
        let total = try database.readTransaction { () -> DatabaseValue? in
            runs += 1
            _ = try count(table, database)
            database.expectInRead([], thenClosing: true)
            _ = try database.scalar(page, [])
            return try count(table, database)
        }
        #expect(runs == 2)
        #expect(total == .integer(1))
        #expect(database.earlyCloseRetries == 1)
    }

    @Test func aReadClosingEarlyWhoseReadAheadCouldNotBeSentStaysOpenInsteadOfRunningAgain() throws {
        let (database, table) = try connection()
        let broken = ExpectedRead(sql: "SELECT no_such_column FROM \(table) WHERE n = ?", arguments: [.integer(1)])
        let later = "SELECT CAST(count(*) + 1 AS bigint) FROM \(table)"
        var runs = 0
        let answer = try database.readTransaction(expecting: [broken], closingEarly: true) { () -> DatabaseValue? in
            runs += 1
            _ = try count(table, database)
            #expect(database.isInTransaction, "no COMMIT went out with a read left behind")
            return try database.scalar(later, [])
        }
        #expect(answer == .integer(1) && runs == 1)
        #expect(database.earlyCloseRetries == 0)
    }
}

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
}

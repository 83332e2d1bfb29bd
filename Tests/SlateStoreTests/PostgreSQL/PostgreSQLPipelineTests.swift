import Foundation
import TestDatabases
import Testing

@testable import SlateStore

/// Statements whose answers a write does not read wait and travel with the next one that
/// has an answer (PostgreSQLDatabase+Pipeline.swift). A transaction must mean what it meant:
/// all or nothing, each failure reported with its own statement, and a failure inside a
/// savepoint (one change of a group commit) rolled back with that savepoint alone.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct PostgreSQLPipelineTests {
    struct Refused: Error {}

    func connection() throws -> (database: PostgreSQLDatabase, table: String) {
        let database = try PostgreSQLDatabase(location: PostgreSQLLocation(url: TestDatabase.postgreSQLURL!), lockTimeout: 5)
        let schema = "pipeline_\(UUID().uuidString.prefix(8).lowercased())"
        try database.execute("CREATE SCHEMA \(schema); CREATE TABLE \(schema).items (n bigint NOT NULL)")
        return (database, "\(schema).items")
    }

    func values(_ table: String, _ database: PostgreSQLDatabase) throws -> [Int] {
        try database.rows("SELECT n FROM \(table) ORDER BY n", []).compactMap { Int.fromDatabaseValue($0["n"]) }
    }

    func insert(_ table: String) -> String { "INSERT INTO \(table) (n) VALUES (?)" }

    @Test func unwaitedStatementsRunInOrderBeforeTheNextReadAndCommitWithTheTransaction() throws {
        let (database, table) = try connection()
        let (other, _) = try connection()
        try database.transaction {
            try database.executeWithoutWaiting(insert(table), [.integer(1)])
            try database.executeWithoutWaiting("UPDATE \(table) SET n = n + 10", [])
            try database.executeWithoutWaiting(insert(table), [.integer(2)])
            #expect(!database.unsent.isEmpty)
            // This read goes out after them, in the same transaction.
            #expect(try values(table, database) == [2, 11])
            #expect(try values(table, other) == [])
            try database.executeWithoutWaiting(insert(table), [.integer(3)])
        }
        // The last one travelled with COMMIT.
        #expect(database.unsent.isEmpty)
        #expect(try values(table, other) == [2, 3, 11])
    }

    @Test func aFailingUnwaitedStatementIsReportedByTheNextStatementWithItsOwnSQLAndNothingCommits() throws {
        let (database, table) = try connection()
        #expect {
            try database.transaction {
                try database.execute(insert(table), [.integer(1)])
                try database.executeWithoutWaiting("INSERT INTO \(table) (n) VALUES (CAST(? AS bigint))", [.text("seven")])
                try database.executeWithoutWaiting(insert(table), [.integer(2)])
                _ = try values(table, database)
                Issue.record("the read after a failed statement must throw")
            }
        } throws: { error in
            "\(error)".contains("CAST(? AS bigint)") && "\(error)".contains("seven")
        }
        #expect(!database.isInTransaction)
        #expect(database.unsent.isEmpty)
        #expect(try values(table, database) == [])
    }

    @Test func aFailureThatOnlyCommitCouldReportFailsTheCommit() throws {
        let (database, table) = try connection()
        #expect {
            try database.transaction {
                try database.execute(insert(table), [.integer(1)])
                try database.executeWithoutWaiting("INSERT INTO \(table) (n) VALUES (NULL)", [])
            }
        } throws: { error in
            "\(error)".contains("NOT NULL")
        }
        #expect(!database.isInTransaction)
        #expect(try values(table, database) == [])
        // The connection serves the next transaction.
        try database.transaction { try database.executeWithoutWaiting(insert(table), [.integer(4)]) }
        #expect(try values(table, database) == [4])
    }

    @Test func aFailureInsideASavepointRollsBackThatSavepointAloneAsAGroupCommitNeeds() throws {
        let (database, table) = try connection()
        var inner: (any Error)?
        try database.transaction {
            try database.execute(insert(table), [.integer(1)])
            do {
                try database.transaction {
                    try database.executeWithoutWaiting(insert(table), [.integer(2)])
                    try database.executeWithoutWaiting("INSERT INTO \(table) (n) VALUES (NULL)", [])
                }
            } catch {
                inner = error
            }
            try database.executeWithoutWaiting(insert(table), [.integer(3)])
        }
        // Reported by the savepoint's RELEASE, inside it, so only 2 was rolled back.
        #expect(inner.map { "\($0)".contains("NOT NULL") } == true)
        #expect(try values(table, database) == [1, 3])
    }

    @Test func anEarlierFailureIsNotTakenForALaterSavepointsAndFailsTheTransaction() throws {
        let (database, table) = try connection()
        var ran = false
        #expect(throws: (any Error).self) {
            try database.transaction {
                try database.execute(insert(table), [.integer(1)])
                try database.executeWithoutWaiting("INSERT INTO \(table) (n) VALUES (NULL)", [])
                // The failure belongs to the transaction, not to this savepoint: it is reported
                // before the savepoint begins, and swallowing it must not let the transaction commit.
                try? database.transaction {
                    ran = true
                    try database.executeWithoutWaiting(insert(table), [.integer(2)])
                }
            }
        }
        #expect(!ran)
        #expect(!database.isInTransaction)
        #expect(try values(table, database) == [])
    }

    @Test func aSavepointThatThrowsBeforeSendingAnythingLeavesTheTransactionAsItWas() throws {
        let (database, table) = try connection()
        try database.transaction {
            try database.executeWithoutWaiting(insert(table), [.integer(1)])
            #expect(throws: Refused.self) {
                try database.transaction {
                    try database.executeWithoutWaiting(insert(table), [.integer(2)])
                    throw Refused()
                }
            }
            try database.transaction { try database.executeWithoutWaiting(insert(table), [.integer(3)]) }
        }
        #expect(try values(table, database) == [1, 3])
        // Not even its own BEGIN was sent when the whole transaction throws first.
        #expect(throws: Refused.self) {
            try database.transaction {
                try database.executeWithoutWaiting(insert(table), [.integer(5)])
                throw Refused()
            }
        }
        #expect(database.unsent.isEmpty && !database.isInTransaction)
        #expect(try values(table, database) == [1, 3])
    }

    @Test func inAReadTransactionAnUnwaitedStatementRunsAtOnce() throws {
        let (database, table) = try connection()
        #expect {
            try database.readTransaction { try database.executeWithoutWaiting(insert(table), [.integer(1)]) }
        } throws: { error in
            "\(error)".contains("read-only")
        }
        #expect(database.unsent.isEmpty)
        #expect(try values(table, database) == [])
    }
}

import Foundation
import TestDatabases
import Testing

@testable import SlateStore

/// A write transaction that bumped the store sequence holds its row, so it knows the
/// sequence without reading it (`PostgreSQLDatabase.heldSequence`). What it answers must be
/// what a read would answer: after a savepoint that took the row rolls back, after the
/// transaction, and outside one, the row is read again.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct PostgreSQLHeldSequenceTests {
    struct Refused: Error {}

    /// Two connections to a fresh schema holding the store sequence at 5.
    func connections() throws -> (PostgreSQLDatabase, PostgreSQLDatabase) {
        let schema = "held_\(UUID().uuidString.prefix(8).lowercased())"
        let first = try PostgreSQLDatabase(location: PostgreSQLLocation(url: TestDatabase.postgreSQLURL!), lockTimeout: 5)
        try first.execute("""
            CREATE SCHEMA \(schema); SET search_path = \(schema); \
            CREATE TABLE _slate_meta (key text PRIMARY KEY, value bigint NOT NULL); \
            INSERT INTO _slate_meta VALUES ('revision', 5)
            """)
        let second = try PostgreSQLDatabase(location: PostgreSQLLocation(url: TestDatabase.postgreSQLURL!), lockTimeout: 5)
        try second.execute("SET search_path = \(schema)")
        return (first, second)
    }

    func stored(_ database: PostgreSQLDatabase) throws -> Int {
        try database.scalar("SELECT value FROM _slate_meta WHERE key = 'revision'", []).flatMap(Int.fromDatabaseValue) ?? -1
    }

    @Test func aWriteThatBumpedTheSequenceAnswersItWithoutAReadAndForgetsItAtTheEnd() throws {
        let (database, other) = try connections()
        try database.transaction {
            #expect(database.sequenceHeld == nil)
            #expect(try ChangeLog.nextRevision(database) == 6)
            #expect(database.sequenceHeld == 6)
            #expect(try ChangeLog.currentRevision(database) == 6)
            #expect(try ChangeLog.nextRevision(database) == 7)
            let read = try stored(database)
            #expect(try ChangeLog.currentRevision(database) == read)
        }
        #expect(database.sequenceHeld == nil)
        // Another writer moves it once this one has let go: read, not remembered.
        try other.transaction { _ = try ChangeLog.nextRevision(other) }
        #expect(try ChangeLog.currentRevision(database) == 8)
        let inside = try database.transaction { try ChangeLog.currentRevision(database) }
        #expect(inside == 8)
    }

    @Test func aSavepointThatTookTheRowAndRolledBackLetsGoAndTheSequenceIsReadAgain() throws {
        let (database, other) = try connections()
        try database.transaction {
            #expect(throws: Refused.self) {
                try database.transaction {
                    #expect(try ChangeLog.nextRevision(database) == 6)
                    throw Refused()
                }
            }
            #expect(database.sequenceHeld == nil)
            // The rollback released the row: another node's writer can take it meanwhile (twice:
            // past the number rolled back), and this transaction (READ COMMITTED) sees it.
            try other.transaction { _ = try ChangeLog.nextRevision(other) }
            try other.transaction { _ = try ChangeLog.nextRevision(other) }
            #expect(try ChangeLog.currentRevision(database) == 7)
            #expect(try ChangeLog.nextRevision(database) == 8)
        }
        #expect(try stored(other) == 8)
    }

    @Test func aSavepointRolledBackAfterAnEarlierBumpKeepsTheEarlierValue() throws {
        let (database, _) = try connections()
        try database.transaction {
            #expect(try ChangeLog.nextRevision(database) == 6)
            #expect(throws: Refused.self) {
                try database.transaction {
                    #expect(try ChangeLog.nextRevision(database) == 7)
                    throw Refused()
                }
            }
            #expect(database.sequenceHeld == 6)
            let read = try stored(database)
            #expect(try ChangeLog.currentRevision(database) == read)
        }
        #expect(try ChangeLog.currentRevision(database) == 6)
    }

    @Test func aBumpOutsideATransactionHoldsNothingAndIsNotRemembered() throws {
        let (database, other) = try connections()
        #expect(try ChangeLog.nextRevision(database) == 6)
        #expect(database.sequenceHeld == nil)
        try other.transaction { _ = try ChangeLog.nextRevision(other) }
        #expect(try ChangeLog.currentRevision(database) == 7)
        let read = try database.readTransaction { try ChangeLog.currentRevision(database) }
        #expect(read == 7)
    }
}

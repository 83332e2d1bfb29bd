import Foundation
import TestDatabases
import Testing

@testable import SlateStore

/// What only a server has: connecting (bad URLs, wrong passwords, nobody listening, a schema
/// to create), and connections that die under the store (a server restart, an
/// administrator's `pg_terminate_backend`, a network cut look alike to the client).
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct PostgreSQLConnectionTests {
    /// A connection of the test's own, for what an administrator would do.
    func administrator() throws -> PostgreSQLDatabase {
        try PostgreSQLDatabase(location: PostgreSQLLocation(url: TestDatabase.postgreSQLURL!), lockTimeout: 5)
    }

    /// Ends the server process behind `pid` and waits until it is gone.
    func terminate(_ pid: DatabaseValue) throws {
        let admin = try administrator()
        _ = try admin.scalar("SELECT pg_terminate_backend(CAST(? AS integer))", [pid])
        let deadline = Date().addingTimeInterval(10)
        while try admin.scalar("SELECT count(*) FROM pg_stat_activity WHERE pid = CAST(? AS integer)", [pid]) != .integer(0) {
            guard Date() < deadline else { throw StoreError.busy(path: "the terminated backend did not exit") }
            usleep(10_000)
        }
    }

    @Test func aWrongPasswordFailsInWordsWithoutThePassword() throws {
        let port = try #require(ProcessInfo.processInfo.environment["SLATE_TEST_POSTGRES_PORT"])
        let location = try PostgreSQLLocation(url: "postgresql://slate_password@127.0.0.1:\(port)/slate_test", password: "not-the-password")
        #expect(location.description == "postgresql://slate_password@127.0.0.1:\(port)/slate_test")
        #expect {
            try ModelContainer(for: allModels, configuration: ModelConfiguration(postgreSQL: location))
        } throws: { error in
            guard case StoreError.cannotOpen(let database, let reason) = error else { return false }
            return database == location.description && reason.contains("password authentication failed")
                && !"\(error)".contains("not-the-password")
        }
        // The right one, from outside the URL, opens it.
        let right = try PostgreSQLLocation(url: "postgresql://slate_password@127.0.0.1:\(port)/slate_test?options=-csearch_path%3Dpw_\(UUID().uuidString.prefix(8).lowercased())", password: "test-password")
        _ = try ModelContainer(for: allModels, configuration: ModelConfiguration(postgreSQL: right))
    }

    @Test func aBadURLIsRefusedNamingWhatIsWrong() throws {
        #expect { try PostgreSQLLocation(url: "postgresql://localhost/slate?colour=blue") } throws: { error in
            guard case StoreError.cannotOpen(_, let reason) = error else { return false }
            return reason.contains("colour")
        }
        #expect { try PostgreSQLLocation(url: "mysql://localhost/slate") } throws: { error in
            "\(error)".contains("postgresql://")
        }
    }

    @Test func nobodyListeningIsUnavailable() throws {
        let location = try PostgreSQLLocation(url: "postgresql://nobody@127.0.0.1:1/slate?connect_timeout=2")
        #expect {
            try ModelContainer(for: allModels, configuration: ModelConfiguration(postgreSQL: location))
        } throws: { error in
            guard case StoreError.unavailable(let database, let reason) = error else { return false }
            return database == "postgresql://nobody@127.0.0.1:1/slate" && reason.contains("127.0.0.1")
        }
    }

    @Test func theSchemaOfTheSearchPathIsCreatedAndHoldsTheTables() throws {
        let schema = "made_" + UUID().uuidString.prefix(8).lowercased()
        let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(postgreSQL: PostgreSQLLocation(url: TestDatabase.url(schema: schema)!)))
        #expect(container.dialect == .postgreSQL)
        let tables = try administrator().rows("SELECT tablename FROM pg_tables WHERE schemaname = ? ORDER BY tablename", [.text(schema)])
            .compactMap { String.fromDatabaseValue($0["tablename"]) }
        #expect(tables.contains("items") && tables.contains("_slate_meta") && !tables.contains("_slate_fts"))
    }

    @Test func aWriteWhoseConnectionDiesBeforeCommitIsRolledBackAndRunAgain() throws {
        let container = try makeContainer()
        var attempts = 0
        try container.pool.write { database in
            try database.transaction {
                attempts += 1
                _ = try ChangeLog.nextRevision(database)
                try database.execute("INSERT INTO owners (\"id\", \"name\", \"_rev\") VALUES (?, 'first', 1)", [.text(UUID().uuidString)])
                if attempts == 1 { try terminate(try database.scalar("SELECT pg_backend_pid()") ?? .null) }
                try database.execute("INSERT INTO owners (\"id\", \"name\", \"_rev\") VALUES (?, 'second', 1)", [.text(UUID().uuidString)])
            }
        }
        #expect(attempts == 2)
        let names = try ModelContext(container).fetch(FetchDescriptor<Owner>()).map(\.name).sorted()
        #expect(names == ["first", "second"], "the first attempt left nothing behind")
        #expect(try container.currentRevision() == 1)
    }

    @Test func aWriteWhoseConnectionDiesAtCommitIsReportedNotRepeated() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        var attempts = 0
        #expect {
            try container.pool.write { database in
                try database.transaction {
                    attempts += 1
                    _ = try ChangeLog.nextRevision(database)
                    try terminate(try database.scalar("SELECT pg_backend_pid()") ?? .null)
                }
            }
        } throws: { error in
            guard case StoreError.unavailable(_, let reason) = error else { return false }
            return reason.contains("may or may not have been saved")
        }
        #expect(attempts == 1)
        // The store goes on: the next write connects again.
        context.insert(Owner(name: "after"))
        #expect(try context.save() != nil)
    }

    @Test func readersDroppedByTheServerAreReplacedWithoutAnError() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.insert(Owner(name: "Ada"))
        try context.save()
        let pid = try container.pool.readStatement { try $0.scalar("SELECT pg_backend_pid()") } ?? .null
        try terminate(pid)
        #expect(try context.fetch(FetchDescriptor<Owner>()).map(\.name) == ["Ada"])
        let writer = try container.pool.write { try $0.scalar("SELECT pg_backend_pid()") } ?? .null
        try terminate(writer)
        context.insert(Owner(name: "Grace"))
        #expect(try context.save()?.revision == 2)
    }
}

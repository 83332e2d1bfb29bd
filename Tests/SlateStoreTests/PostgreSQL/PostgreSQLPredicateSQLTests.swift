import Foundation
import Testing

@testable import SlateStore

/// The SQL the translator writes for PostgreSQL, stated next to the predicate (the same
/// predicates as `PredicateSQLTests`; `PredicateOracleTests` holds the results of both to
/// `Predicate.evaluate`). No server needed.
@Suite struct PostgreSQLPredicateSQLTests {
    func sql(_ predicate: Predicate<Item>) throws -> SQLExpression {
        try PredicateTranslation.whereClause(for: predicate, alias: "t", dialect: .postgreSQL)
    }

    @Test func comparisonsAndLogicAreConditionsAndBoolsAreValues() throws {
        let now = Date(timeIntervalSinceReferenceDate: 100)
        let clause = try sql(#Predicate { !$0.isDone && ($0.rank >= 2 || $0.created < now) })
        #expect(clause.sql == #"((t."isDone" = 0) AND ((t."rank" >= ?) OR (t."created" < ?)))"#)
        #expect(clause.arguments == [.integer(2), .real(100)])
        #expect(try sql(#Predicate { $0.isDone }).sql == #"(t."isDone" <> 0)"#)
        #expect(try sql(#Predicate { $0.isDone == true }).sql == #"(t."isDone" = ?)"#)
    }

    @Test func equalityIsWrittenFromWhatIsKnownAboutNull() throws {
        // A required column against a value: a plain, indexable `=`.
        #expect(try sql(#Predicate { $0.rank == 3 }).sql == #"(t."rank" = ?)"#)
        // An optional one: never NULL as a whole, so `NOT` keeps Swift's meaning.
        let clause = try sql(#Predicate { $0.notes == nil && $0.count != 3 })
        #expect(clause.sql == #"((t."notes" IS NULL) AND (t."count" <> ? OR t."count" IS NULL))"#)
        #expect(clause.arguments == [.integer(3)])
        #expect(try sql(#Predicate { $0.count == 3 }).sql == #"(t."count" = ? AND t."count" IS NOT NULL)"#)
        #expect(try sql(#Predicate { $0.projectID == $0.parentID }).sql == #"(t."projectID" IS NOT DISTINCT FROM t."parentID")"#)
    }

    @Test func flatMapYieldsNullForNilAndCoalesces() throws {
        let now = Date(timeIntervalSinceReferenceDate: 5)
        let clause = try sql(#Predicate { $0.due.flatMap { $0 < now } ?? false })
        #expect(clause.sql == #"(COALESCE((CASE WHEN t."due" IS NULL THEN NULL ELSE CAST((t."due" < ?) AS integer) END), ?) <> 0)"#)
        #expect(clause.arguments == [.real(5), .integer(0)])
    }

    @Test func capturedArraysBecomeInListsAndStoredArraysContainment() throws {
        let levels: [Item.Level] = [.high, .critical]
        #expect(try sql(#Predicate { levels.contains($0.level) }).sql == #"(t."level" IN (?, ?))"#)
        let kinds: [Item.Kind?] = [.idea, nil]
        #expect(try sql(#Predicate { kinds.contains($0.kind) }).sql
            == #"((t."kind" IN (?) AND t."kind" IS NOT NULL) OR (t."kind" IS NULL))"#)
        let none: [Int] = []
        #expect(try sql(#Predicate { none.contains($0.rank) }).sql == "FALSE")
        #expect(try sql(#Predicate { $0.labels.contains("home") }).sql == #"(CAST(t."labels" AS jsonb) @> jsonb_build_array(?))"#)
    }

    @Test func textTestsUseStrposAndDivisionByZeroIsNull() throws {
        #expect(try sql(#Predicate { $0.title.contains("oo") || $0.title.starts(with: "W") }).sql
            == #"((strpos(t."title", ?) > 0) OR (strpos(t."title", ?) = 1))"#)
        #expect(try sql(#Predicate { $0.rank / 2 == 1 }).sql == #"((t."rank" / NULLIF(?, 0)) = ? AND (t."rank" / NULLIF(?, 0)) IS NOT NULL)"#)
    }

    @Test func sortsPutNilWhereSQLiteDoes() throws {
        let up = try SortKey<Item>.ascending(\.due).sql(alias: "t", dialect: .postgreSQL)
        let down = try SortKey<Item>.descending(\.due).sql(alias: "t", dialect: .postgreSQL)
        let last = try SortKey<Item>.ascending(\.due, nilsLast: true).sql(alias: "t", dialect: .postgreSQL)
        #expect([up, down, last] == [#"t."due" ASC NULLS FIRST"#, #"t."due" DESC NULLS LAST"#, #"t."due" ASC NULLS LAST"#])
    }

    @Test func unsupportedNodesAreNamed() throws {
        let error = #expect(throws: StoreError.self) { try self.sql(#Predicate { $0.title.count > 3 }) }
        #expect(error?.description.contains("key path") == true)
    }
}

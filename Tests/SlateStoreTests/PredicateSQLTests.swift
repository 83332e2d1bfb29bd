import Foundation
import Testing

@testable import SlateStore

/// The SQL the translator writes, stated next to the predicate, and what it refuses.
@Suite struct PredicateSQLTests {
    func sql(_ predicate: Predicate<Item>) throws -> SQLExpression {
        try PredicateTranslation.whereClause(for: predicate, alias: "t")
    }

    @Test func comparisonsAndLogicBindEveryValue() throws {
        let now = Date(timeIntervalSinceReferenceDate: 100)
        let clause = try sql(#Predicate { !$0.isDone && ($0.rank >= 2 || $0.created < now) })
        #expect(clause.sql == #"((t."isDone" = 0) AND ((t."rank" >= ?) OR (t."created" < ?)))"#)
        #expect(clause.arguments == [.integer(2), .real(100)])
    }

    @Test func equalityUsesIsSoNilMatchesSwift() throws {
        let clause = try sql(#Predicate { $0.notes == nil && $0.count != 3 })
        #expect(clause.sql == #"((t."notes" IS NULL) AND (t."count" IS NOT ?))"#)
        #expect(clause.arguments == [.integer(3)])
    }

    @Test func flatMapYieldsNullForNilAndCoalesces() throws {
        let now = Date(timeIntervalSinceReferenceDate: 5)
        let clause = try sql(#Predicate { $0.due.flatMap { $0 < now } ?? false })
        #expect(clause.sql == #"COALESCE((CASE WHEN t."due" IS NULL THEN NULL ELSE (t."due" < ?) END), ?)"#)
        #expect(clause.arguments == [.real(5), .integer(0)])
    }

    @Test func capturedArraysBecomeInLists() throws {
        let levels: [Item.Level] = [.high, .critical]
        let clause = try sql(#Predicate { levels.contains($0.level) })
        // Index-friendly: no function around the IN, and NULL is still "not in".
        #expect(clause.sql == #"(t."level" IN (?, ?) AND t."level" IS NOT NULL)"#)
        #expect(clause.arguments == [.integer(3), .integer(4)])
    }

    @Test func textTestsUseInstr() throws {
        let clause = try sql(#Predicate { $0.title.contains("oo") || $0.title.starts(with: "W") })
        #expect(clause.sql == #"((instr(t."title", ?) > 0) OR (instr(t."title", ?) = 1))"#)
    }

    @Test func enumRawValueIsTheColumn() throws {
        let clause = try sql(#Predicate { $0.level.rawValue > 1 })
        #expect(clause.sql == #"(t."level" > ?)"#)
    }

    @Test func unsupportedNodesAreNamed() throws {
        let error = #expect(throws: StoreError.self) {
            try self.sql(#Predicate { $0.title.count > 3 })
        }
        guard case .unsupportedPredicate(let message) = error else {
            Issue.record("expected unsupportedPredicate, got \(String(describing: error))")
            return
        }
        #expect(message.contains("key path"))
        let regexError = #expect(throws: StoreError.self) {
            try self.sql(#Predicate { $0.title.contains(/W.*y/) })
        }
        #expect(regexError?.description.contains("StringContainsRegex") == true)
    }

    @Test func sortOnANonStoredKeyPathIsRefused() throws {
        let context = ModelContext(try makeContainer())
        let error = #expect(throws: StoreError.self) {
            _ = try context.fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.titleLength)]))
        }
        guard case .unknownKeyPath(let model, _) = error else {
            Issue.record("expected unknownKeyPath, got \(String(describing: error))")
            return
        }
        #expect(model == "Item")
    }
}

extension Item {
    /// Computed, not stored: sorting or filtering on it must be refused.
    var titleLength: Int { title.count }
}

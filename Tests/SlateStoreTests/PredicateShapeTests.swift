import Foundation
import Testing

@testable import SlateStore

/// A predicate of a shape translated before reuses that SQL with its own values
/// (`PredicateShapeCache`): the result must always be what a full walk writes.
@Suite struct PredicateShapeTests {
    /// `$0[keyPath: keyPath] == value`, built by hand so that two key paths give predicates
    /// of one type (a `#Predicate` names its key path in the source).
    static func equal(_ keyPath: any KeyPath<Item, UUID?> & Sendable, _ value: UUID?) -> Predicate<
        Item
    > {
        Predicate { item in
            PredicateExpressions.build_Equal(
                lhs: PredicateExpressions.build_KeyPath(root: item, keyPath: keyPath),
                rhs: PredicateExpressions.build_Arg(value))
        }
    }

    /// `$0.rank <op> value`, one type for every operator.
    static func rank(_ op: PredicateExpressions.ComparisonOperator, _ value: Int) -> Predicate<Item> {
        Predicate { item in
            PredicateExpressions.build_Comparison(
                lhs: PredicateExpressions.build_KeyPath(root: item, keyPath: \.rank),
                rhs: PredicateExpressions.build_Arg(value), op: op)
        }
    }

    /// Both columns fixed with `==`: one type whatever the two values are.
    static func bothParents(_ project: UUID?, _ parent: UUID?) -> Predicate<Item> {
        #Predicate { $0.projectID == project && $0.parentID == parent }
    }

    func cached(_ predicate: Predicate<Item>) throws -> SQLExpression {
        try PredicateTranslation.whereClause(for: predicate, alias: "t")
    }

    func walked(_ predicate: Predicate<Item>) throws -> SQLExpression {
        try PredicateTranslation.translated(predicate, alias: "t", dialect: .sqlite)
    }

    /// The `==` columns and values, comparable.
    func fixed(_ clause: SQLExpression) -> [String]? {
        clause.equalities?.map { "\($0.column)=\($0.value)" }
    }

    func expectSame(_ predicate: Predicate<Item>, _ comment: String = "") throws {
        let reused = try cached(predicate)
        let full = try walked(predicate)
        #expect(reused.sql == full.sql, "\(comment)")
        #expect(reused.arguments == full.arguments, "\(comment)")
        #expect(fixed(reused) == fixed(full), "\(comment)")
    }

    @Test func aShapeAskedAgainIsReusedWithItsNewValues() throws {
        let first = UUID()
        let second = UUID()
        _ = try cached(Self.equal(\.projectID, first))
        guard
            let (key, arguments) = PredicateTranslation.shape(
                of: Self.equal(\.projectID, second), alias: "t")
        else {
            Issue.record("an == of a column and a value has a shape")
            return
        }
        #expect(PredicateShapeCache.shared.template(for: key) != nil)
        #expect(arguments == [second.databaseValue])
        let again = try cached(Self.equal(\.projectID, second))
        #expect(again.sql == #"(t."projectID" IS ?)"#)
        #expect(again.arguments == [second.databaseValue])
        #expect(fixed(again) == ["projectID=\(second.databaseValue)"])
    }

    @Test func keyPathsAndOperatorsAreToldApartInOneType() throws {
        let id = UUID()
        #expect(
            type(of: Self.equal(\.projectID, id).expression)
                == type(of: Self.equal(\.parentID, id).expression))
        #expect(try cached(Self.equal(\.projectID, id)).sql == #"(t."projectID" IS ?)"#)
        #expect(try cached(Self.equal(\.parentID, id)).sql == #"(t."parentID" IS ?)"#)
        #expect(try cached(Self.equal(\.projectID, id)).sql == #"(t."projectID" IS ?)"#)
        let operators: [(PredicateExpressions.ComparisonOperator, String)] = [
            (.lessThan, "<"), (.greaterThan, ">"), (.lessThanOrEqual, "<="), (.greaterThanOrEqual, ">="),
        ]
        for (op, symbol) in operators + operators {
            let clause = try cached(Self.rank(op, 7))
            #expect(clause.sql == #"(t."rank" \#(symbol) ?)"#)
            #expect(clause.arguments == [.integer(7)])
        }
    }

    @Test func nilAndRepeatedValuesFixTheRightColumns() throws {
        let a = UUID()
        let b = UUID()
        // Two equal values cannot be told apart by position: this shape is never kept, and
        // each translation still fixes each column to its own value.
        for (project, parent) in [(a, a), (a, b), (b, a), (nil, a), (a, nil), (nil, nil), (b, b)]
            as [(UUID?, UUID?)]
        {
            try expectSame(
                Self.bothParents(project, parent),
                "\(String(describing: project)) \(String(describing: parent))")
            #expect(
                fixed(try cached(Self.bothParents(project, parent))) == [
                    "projectID=\(project.databaseValue)", "parentID=\(parent.databaseValue)",
                ])
        }
    }

    @Test func countsThroughTheCacheFollowTheirValues() throws {
        let context = ModelContext(try makeContainer())
        let projects = [Project(name: "A"), Project(name: "B")]
        for project in projects { context.insert(project) }
        let (a, b) = (projects[0].id, projects[1].id)
        for (project, copies) in [(a, 3), (b, 2), (nil, 1)] as [(UUID?, Int)] {
            for number in 0..<copies { context.insert(Item(title: "\(number)", projectID: project)) }
        }
        try context.save()
        // Each value twice: the first may fill the cache, the second reads it.
        for (project, expected) in [(a, 3), (b, 2), (nil, 1), (a, 3), (b, 2), (nil, 1)]
            as [(UUID?, Int)]
        {
            #expect(
                try context.fetchCount(FetchDescriptor(predicate: Self.equal(\.projectID, project)))
                    == expected)
            #expect(
                try context.fetch(FetchDescriptor(predicate: Self.equal(\.projectID, project))).count
                    == expected)
        }
    }

    @Test func everyOracleCaseReadsBackWhatAFullWalkWrites() throws {
        let first = (0..<5).map { _ in UUID() }
        let second = (0..<7).map { _ in UUID() }
        for (_, predicate) in PredicateOracleTests.cases(ids: first) { _ = try? cached(predicate) }
        var shaped = 0
        for (name, predicate) in PredicateOracleTests.cases(ids: second) {
            if PredicateTranslation.shape(of: predicate, alias: "t") != nil { shaped += 1 }
            guard (try? walked(predicate)) != nil else {
                #expect(throws: StoreError.self, "\(name)") { try self.cached(predicate) }
                continue
            }
            try expectSame(predicate, name)
        }
        // Most of the constructs are plain comparisons and logic.
        #expect(shaped >= 10)
    }

    @Test func treesWithCapturedArraysAreWalkedEveryTime() throws {
        let two: [Int] = [1, 2]
        let three: [Int] = [1, 2, 3]
        func within(_ values: [Int]) -> Predicate<Item> { #Predicate { values.contains($0.rank) } }
        #expect(PredicateTranslation.shape(of: within(two), alias: "t") == nil)
        #expect(try cached(within(two)).arguments.count == 2)
        #expect(try cached(within(three)).arguments.count == 3)
    }
}

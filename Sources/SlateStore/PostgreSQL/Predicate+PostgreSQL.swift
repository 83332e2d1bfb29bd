import Foundation

// `#Predicate` in PostgreSQL's SQL, with the semantics the SQLite translation has (and
// `Predicate.evaluate` has: PredicateOracleTests holds both to it). Two differences shape it:
//
// - PostgreSQL tells conditions from values: a stored Bool is a value (0 or 1, as on
//   SQLite), `WHERE` and `AND` need conditions. Each fragment says which it is
//   (`SQLExpression.isCondition`) and is converted where the other is needed.
// - PostgreSQL has no `IS` between values, and `IS NOT DISTINCT FROM` can use no index.
//   Swift's `==` (nil equals nil, nil differs from 1) is written from what is known about
//   NULL on each side (`SQLExpression.nullness`): `=` when neither can be NULL, `IS NULL`
//   against nil, and `= … AND … IS NOT NULL` when one side may be, so that the test is
//   never NULL (which `NOT` would keep NULL) and an index still serves it.

/// An expression node with a PostgreSQL form.
protocol PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression
}

extension SQLExpression {
    /// The fragment as a boolean condition: a stored Bool (a value) is tested against 0.
    var asCondition: SQLExpression {
        guard !isCondition else { return self }
        var condition = SQLExpression("(\(sql) <> 0)", arguments)
        condition.isCondition = true
        condition.nullness = nullness
        return condition
    }

    /// The fragment as a value: a condition becomes 1 or 0 (NULL stays NULL).
    var asValue: SQLExpression {
        guard isCondition else { return self }
        var value = SQLExpression("CAST(\(sql) AS integer)", arguments)
        value.nullness = nullness
        return value
    }

    /// A condition made of `parts`.
    static func condition(_ parts: [SQLExpression], nullness: Nullness? = nil, _ makeSQL: ([String]) -> String) -> SQLExpression {
        var expression = combine(parts, makeSQL)
        expression.isCondition = true
        expression.nullness = nullness ?? (parts.allSatisfy { $0.nullness == .never } ? .never : .maybe)
        return expression
    }

    static var alwaysTrue: SQLExpression { condition([], nullness: .never) { _ in "TRUE" } }
    static var alwaysFalse: SQLExpression { condition([], nullness: .never) { _ in "FALSE" } }
}

/// Swift's `==` between two values, as a condition that is never NULL.
func postgreSQLEqual(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
    let lhs = lhs.asValue, rhs = rhs.asValue
    switch (lhs.nullness, rhs.nullness) {
    case (.always, .always): return .alwaysTrue
    case (.always, _): return .condition([rhs], nullness: .never) { "(\($0[0]) IS NULL)" }
    case (_, .always): return .condition([lhs], nullness: .never) { "(\($0[0]) IS NULL)" }
    case (.never, .never): return .condition([lhs, rhs]) { "(\($0[0]) = \($0[1]))" }
    case (.maybe, .never): return .condition([lhs, rhs, lhs], nullness: .never) { "(\($0[0]) = \($0[1]) AND \($0[2]) IS NOT NULL)" }
    case (.never, .maybe): return .condition([lhs, rhs, rhs], nullness: .never) { "(\($0[0]) = \($0[1]) AND \($0[2]) IS NOT NULL)" }
    case (.maybe, .maybe): return .condition([lhs, rhs], nullness: .never) { "(\($0[0]) IS NOT DISTINCT FROM \($0[1]))" }
    }
}

/// Swift's `!=`, the negation of `postgreSQLEqual`, never NULL.
func postgreSQLNotEqual(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
    let lhs = lhs.asValue, rhs = rhs.asValue
    switch (lhs.nullness, rhs.nullness) {
    case (.always, .always): return .alwaysFalse
    case (.always, _): return .condition([rhs], nullness: .never) { "(\($0[0]) IS NOT NULL)" }
    case (_, .always): return .condition([lhs], nullness: .never) { "(\($0[0]) IS NOT NULL)" }
    case (.never, .never): return .condition([lhs, rhs]) { "(\($0[0]) <> \($0[1]))" }
    case (.maybe, .never): return .condition([lhs, rhs, lhs], nullness: .never) { "(\($0[0]) <> \($0[1]) OR \($0[2]) IS NULL)" }
    case (.never, .maybe): return .condition([lhs, rhs, rhs], nullness: .never) { "(\($0[0]) <> \($0[1]) OR \($0[2]) IS NULL)" }
    case (.maybe, .maybe): return .condition([lhs, rhs], nullness: .never) { "(\($0[0]) IS DISTINCT FROM \($0[1]))" }
    }
}

// MARK: Leaves

extension PredicateExpressions.Variable: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        try sql(in: &translation)
    }
}

extension PredicateExpressions.KeyPath: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        if let variable = root as? any PredicateVariable, case .model = translation.variables[variable.variableKey] {
            return try translation.column(keyPath)
        }
        let base = try translation.translate(root)
        if let matcher = base.rawValueKeyPath, matcher.matches(keyPath) {
            var value = SQLExpression(base.sql, base.arguments)
            value.nullness = base.nullness
            return value
        }
        if keyPath == \String.isEmpty {
            return .condition([base]) { "(\($0[0]) = '')" }
        }
        throw StoreError.unsupportedPredicate("the key path \(keyPath) has no SQL form; use stored properties")
    }
}

extension PredicateExpressions.Value: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        var bound = try sql(in: &translation)
        bound.nullness = bound.arguments.first?.isNull == true ? .always : .never
        return bound
    }
}

extension PredicateExpressions.NilLiteral: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        var null = SQLExpression("NULL")
        null.nullness = .always
        return null
    }
}

// MARK: Comparisons and logic

extension PredicateExpressions.Equal: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        postgreSQLEqual(try translation.translate(lhs), try translation.translate(rhs))
    }
}

extension PredicateExpressions.NotEqual: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        postgreSQLNotEqual(try translation.translate(lhs), try translation.translate(rhs))
    }
}

extension PredicateExpressions.Comparison: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let symbol = switch op {
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        @unknown default: throw StoreError.unsupportedPredicate("comparison operator \(op)")
        }
        let parts = [try translation.translate(lhs).asValue, try translation.translate(rhs).asValue]
        return .condition(parts) { "(\($0[0]) \(symbol) \($0[1]))" }
    }
}

extension PredicateExpressions.Conjunction: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs).asCondition, try translation.translate(rhs).asCondition]
        return .condition(parts) { "(\($0[0]) AND \($0[1]))" }
    }
}

extension PredicateExpressions.Disjunction: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs).asCondition, try translation.translate(rhs).asCondition]
        return .condition(parts) { "(\($0[0]) OR \($0[1]))" }
    }
}

extension PredicateExpressions.Negation: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let inner = try translation.translate(wrapped)
        // `!$0.isDone` on a stored Bool: an equality an index can serve.
        if !inner.isCondition {
            return .condition([inner]) { "(\($0[0]) = 0)" }
        }
        return .condition([inner]) { "(NOT \($0[0]))" }
    }
}

extension PredicateExpressions.Conditional: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let test = try translation.translate(self.test).asCondition
        let yes = try translation.translate(trueBranch).asValue
        let no = try translation.translate(falseBranch).asValue
        var expression = SQLExpression.combine([test, yes, no]) { "(CASE WHEN \($0[0]) THEN \($0[1]) ELSE \($0[2]) END)" }
        expression.nullness = yes.nullness == .never && no.nullness == .never ? .never : .maybe
        return expression
    }
}

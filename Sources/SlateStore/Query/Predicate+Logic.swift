import Foundation

// Comparisons and boolean logic. Equality uses IS / IS NOT so that nil == nil is true
// and nil == 1 is false, exactly as in Swift, instead of SQL's three-valued NULL.

extension PredicateExpressions.Equal: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        var expression = SQLExpression.combine(parts) { "(\($0[0]) IS \($0[1]))" }
        // `column == captured value` (or `== nil`), either way round.
        for (column, value) in [(parts[0], parts[1]), (parts[1], parts[0])] {
            guard let name = column.columnName else { continue }
            if value.sql == "?", value.arguments.count == 1 {
                expression.equalities = [(name, value.arguments[0])]
                break
            }
            if value.sql == "NULL", value.arguments.isEmpty {
                expression.equalities = [(name, .null)]
                break
            }
        }
        return expression
    }
}

extension PredicateExpressions.NotEqual: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        return .combine(parts) { "(\($0[0]) IS NOT \($0[1]))" }
    }
}

extension PredicateExpressions.Comparison: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let symbol = switch op {
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        @unknown default: throw StoreError.unsupportedPredicate("comparison operator \(op)")
        }
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        return .combine(parts) { "(\($0[0]) \(symbol) \($0[1]))" }
    }
}

extension PredicateExpressions.Conjunction: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        var expression = SQLExpression.combine(parts) { "(\($0[0]) AND \($0[1]))" }
        if let left = parts[0].equalities, let right = parts[1].equalities { expression.equalities = left + right }
        return expression
    }
}

extension PredicateExpressions.Disjunction: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        return .combine(parts) { "(\($0[0]) OR \($0[1]))" }
    }
}

extension PredicateExpressions.Negation: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let inner = try translation.translate(wrapped)
        // `!$0.isDone` on a stored Bool (0 or 1): an equality lets SQLite use an index.
        if inner.arguments.isEmpty, inner.sql.hasPrefix(translation.tableAlias + ".\""), !inner.sql.contains(" ") {
            return SQLExpression("(\(inner.sql) = 0)")
        }
        return SQLExpression("(NOT \(inner.sql))", inner.arguments)
    }
}

extension PredicateExpressions.Conditional: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(test), try translation.translate(trueBranch), try translation.translate(falseBranch)]
        return .combine(parts) { "(CASE WHEN \($0[0]) THEN \($0[1]) ELSE \($0[2]) END)" }
    }
}

import Foundation

// Arithmetic on numbers: +, -, *, integer / and %, floating-point /, unary minus.

extension PredicateExpressions.Arithmetic: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let symbol = switch op {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        @unknown default: throw StoreError.unsupportedPredicate("arithmetic operator \(op)")
        }
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        return .combine(parts) { "(\($0[0]) \(symbol) \($0[1]))" }
    }
}

extension PredicateExpressions.UnaryMinus: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let inner = try translation.translate(wrapped)
        return SQLExpression("(- \(inner.sql))", inner.arguments)
    }
}

extension PredicateExpressions.IntDivision: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        return .combine(parts) { "(\($0[0]) / \($0[1]))" }
    }
}

extension PredicateExpressions.IntRemainder: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        return .combine(parts) { "(\($0[0]) % \($0[1]))" }
    }
}

extension PredicateExpressions.FloatDivision: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        return .combine(parts) { "(CAST(\($0[0]) AS REAL) / \($0[1]))" }
    }
}

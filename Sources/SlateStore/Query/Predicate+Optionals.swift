import Foundation

// Optional chaining, `flatMap`, `if let`, `??` and `!`.

extension PredicateExpressions.OptionalFlatMap: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let unwrapped = try translation.translate(wrapped)
        translation.variables[variable.key] = .value(unwrapped)
        defer { translation.variables[variable.key] = nil }
        let body = try translation.translate(transform)
        // Swift yields nil when the wrapped value is nil, whatever the transform would say.
        return SQLExpression(
            "(CASE WHEN \(unwrapped.sql) IS NULL THEN NULL ELSE \(body.sql) END)",
            unwrapped.arguments + body.arguments)
    }
}

extension PredicateExpressions.NilCoalesce: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs), try translation.translate(rhs)]
        return .combine(parts) { "COALESCE(\($0[0]), \($0[1]))" }
    }
}

/// A forced unwrap of nil throws in Swift; in SQL the NULL makes the row not match.
extension PredicateExpressions.ForcedUnwrap: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        try translation.translate(inner)
    }
}

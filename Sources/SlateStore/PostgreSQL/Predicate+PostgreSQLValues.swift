import Foundation

// PostgreSQL forms of optionals, arithmetic, membership and text tests (see
// `Predicate+PostgreSQL.swift` for the conventions).

// MARK: Optionals

extension PredicateExpressions.OptionalFlatMap: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let unwrapped = try translation.translate(wrapped).asValue
        // Inside the transform the value is known not to be NULL.
        var bound = unwrapped
        bound.nullness = .never
        translation.variables[variable.key] = .value(bound)
        defer { translation.variables[variable.key] = nil }
        let body = try translation.translate(transform).asValue
        var expression = SQLExpression.combine([unwrapped, body]) { "(CASE WHEN \($0[0]) IS NULL THEN NULL ELSE \($0[1]) END)" }
        expression.nullness = .maybe
        return expression
    }
}

extension PredicateExpressions.NilCoalesce: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let parts = [try translation.translate(lhs).asValue, try translation.translate(rhs).asValue]
        var expression = SQLExpression.combine(parts) { "COALESCE(\($0[0]), \($0[1]))" }
        expression.nullness = parts[1].nullness == .never || parts[0].nullness == .never ? .never : .maybe
        return expression
    }
}

/// A forced unwrap of nil traps in Swift; in SQL the NULL makes the row not match.
extension PredicateExpressions.ForcedUnwrap: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        try translation.translate(inner)
    }
}

// MARK: Arithmetic (a division by zero is NULL, as on SQLite, rather than an error)

extension PredicateExpressions.Arithmetic: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let symbol = switch op {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        @unknown default: throw StoreError.unsupportedPredicate("arithmetic operator \(op)")
        }
        return value([try translation.translate(lhs), try translation.translate(rhs)]) { "(\($0[0]) \(symbol) \($0[1]))" }
    }
}

extension PredicateExpressions.UnaryMinus: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        value([try translation.translate(wrapped)]) { "(- \($0[0]))" }
    }
}

extension PredicateExpressions.IntDivision: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        value([try translation.translate(lhs), try translation.translate(rhs)]) { "(\($0[0]) / NULLIF(\($0[1]), 0))" }
    }
}

extension PredicateExpressions.IntRemainder: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        value([try translation.translate(lhs), try translation.translate(rhs)]) { "(\($0[0]) % NULLIF(\($0[1]), 0))" }
    }
}

extension PredicateExpressions.FloatDivision: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        value([try translation.translate(lhs), try translation.translate(rhs)]) {
            "(CAST(\($0[0]) AS DOUBLE PRECISION) / NULLIF(\($0[1]), 0))"
        }
    }
}

/// A value computed from `parts` (as values).
private func value(_ parts: [SQLExpression], _ makeSQL: ([String]) -> String) -> SQLExpression {
    let values = parts.map(\.asValue)
    var expression = SQLExpression.combine(values, makeSQL)
    expression.nullness = .maybe
    return expression
}

// MARK: Membership and text

extension PredicateExpressions.SequenceContains: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        guard let captured = sequence as? PredicateExpressions.Value<LHS.Output> else {
            // A stored JSON array: containment of a one-element array holding the item.
            let array = try translation.translate(sequence).asValue
            let item = try translation.translate(self.element).asValue
            return .condition([array, item], nullness: .maybe) {
                "(CAST(\($0[0]) AS jsonb) @> jsonb_build_array(\($0[1])))"
            }
        }
        var values: [DatabaseValue] = []
        var includesNil = false
        for element in captured.value {
            guard let bound = databaseValue(ofAny: element) else {
                throw StoreError.unsupportedPredicate("an array element of type \(type(of: element)) cannot be stored in SQL")
            }
            if bound.isNull { includesNil = true } else { values.append(bound) }
        }
        let item = try translation.translate(self.element).asValue
        var tests: [SQLExpression] = []
        if !values.isEmpty {
            let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
            var list = SQLExpression("(\(marks))", values)
            list.nullness = .never
            tests.append(item.nullness == .never
                ? .condition([item, list]) { "(\($0[0]) IN \($0[1]))" }
                : .condition([item, list, item], nullness: .never) { "(\($0[0]) IN \($0[1]) AND \($0[2]) IS NOT NULL)" })
        }
        if includesNil { tests.append(.condition([item], nullness: .never) { "(\($0[0]) IS NULL)" }) }
        if tests.isEmpty { return .alwaysFalse }
        if tests.count == 1 { return tests[0] }
        return .condition(tests) { "(" + $0.joined(separator: " OR ") + ")" }
    }
}

extension PredicateExpressions.ClosedRange: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        throw StoreError.unsupportedPredicate("a range is supported only inside contains(_:)")
    }
}

extension PredicateExpressions.RangeExpressionContains: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let item = try translation.translate(element).asValue
        if let closed = range as? any ClosedRangeBounds {
            let bounds = try closed.boundsSQL(in: &translation)
            return .condition([item, bounds.0.asValue, bounds.1.asValue]) { "(\($0[0]) BETWEEN \($0[1]) AND \($0[2]))" }
        }
        if let halfOpen = range as? any HalfOpenRangeBounds {
            let bounds = try halfOpen.boundsSQL(in: &translation)
            return .condition([item, bounds.0.asValue, item, bounds.1.asValue]) { "(\($0[0]) >= \($0[1]) AND \($0[2]) < \($0[3]))" }
        }
        throw StoreError.unsupportedPredicate("contains(_:) on a range is supported for a...b and a..<b written in the predicate")
    }
}

extension PredicateExpressions.Range: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        throw StoreError.unsupportedPredicate("a range is supported only inside contains(_:)")
    }
}

/// `text.contains("word")`: case- and diacritic-sensitive, as in Swift.
extension PredicateExpressions.CollectionContainsCollection: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        guard Base.Output.self == String.self, Other.Output.self == String.self else {
            throw StoreError.unsupportedPredicate("contains(_:) between collections is supported for strings only")
        }
        return .condition([try translation.translate(base).asValue, try translation.translate(other).asValue]) {
            "(strpos(\($0[0]), \($0[1])) > 0)"
        }
    }
}

/// `text.starts(with: "prefix")`.
extension PredicateExpressions.SequenceStartsWith: PostgreSQLTranslatable {
    func postgreSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        guard Base.Output.self == String.self, Prefix.Output.self == String.self else {
            throw StoreError.unsupportedPredicate("starts(with:) is supported for strings only")
        }
        return .condition([try translation.translate(base).asValue, try translation.translate(prefix).asValue]) {
            "(strpos(\($0[0]), \($0[1])) = 1)"
        }
    }
}

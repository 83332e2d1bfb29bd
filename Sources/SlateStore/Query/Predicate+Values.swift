import Foundation

// Leaves of the tree: the model's properties, captured values, bound variables, nil.

extension PredicateExpressions.Variable: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        switch translation.variables[key] {
        case .value(let expression): return expression
        case .model: throw StoreError.unsupportedPredicate("the model value itself cannot be compared in SQL; compare its properties")
        case nil: throw StoreError.unsupportedPredicate("a variable that is not bound by the predicate or a flatMap")
        }
    }
}

extension PredicateExpressions.KeyPath: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        if let variable = root as? any PredicateVariable, case .model = translation.variables[variable.variableKey] {
            return try translation.column(keyPath)
        }
        let base = try translation.translate(root)
        if let matcher = base.rawValueKeyPath, matcher.matches(keyPath) {
            return SQLExpression(base.sql, base.arguments)
        }
        if keyPath == \String.isEmpty {
            return SQLExpression("(\(base.sql) = '')", base.arguments)
        }
        throw StoreError.unsupportedPredicate("the key path \(keyPath) has no SQL form; use stored properties")
    }
}

extension PredicateExpressions.Value: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        guard let bound = databaseValue(ofAny: value) else {
            throw StoreError.unsupportedPredicate("a captured value of type \(Output.self) cannot be stored in SQL")
        }
        return SQLExpression("?", [bound])
    }
}

extension PredicateExpressions.NilLiteral: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        SQLExpression("NULL")
    }
}

/// Lets the translator see through `Variable<Output>` without knowing `Output`.
protocol PredicateVariable {
    var variableKey: PredicateExpressions.VariableID { get }
}

extension PredicateExpressions.Variable: PredicateVariable {
    var variableKey: PredicateExpressions.VariableID { key }
}

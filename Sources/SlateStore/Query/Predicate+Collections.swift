import Foundation

// Membership in captured arrays and ranges, and substring tests on text.

extension PredicateExpressions.SequenceContains: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        guard let captured = sequence as? PredicateExpressions.Value<LHS.Output> else {
            // A stored JSON array: test membership with json_each.
            let array = try translation.translate(sequence)
            let item = try translation.translate(self.element)
            return SQLExpression(
                "(EXISTS (SELECT 1 FROM json_each(\(array.sql)) WHERE json_each.value IS \(item.sql)))",
                array.arguments + item.arguments)
        }
        var values: [DatabaseValue] = []
        var includesNil = false
        for element in captured.value {
            guard let bound = databaseValue(ofAny: element) else {
                throw StoreError.unsupportedPredicate("an array element of type \(type(of: element)) cannot be stored in SQL")
            }
            if bound.isNull { includesNil = true } else { values.append(bound) }
        }
        let item = try translation.translate(self.element)
        var tests: [SQLExpression] = []
        if !values.isEmpty {
            let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
            // `IS NOT NULL` makes a NULL element "not in" a list of non-nil values, as in Swift,
            // without a COALESCE around the test, which would keep SQLite from using an index
            // on the column (a page's subtask counts walked every task of the account).
            tests.append(SQLExpression("(\(item.sql) IN (\(marks)) AND \(item.sql) IS NOT NULL)", item.arguments + values + item.arguments))
        }
        if includesNil { tests.append(SQLExpression("\(item.sql) IS NULL", item.arguments)) }
        if tests.isEmpty { return SQLExpression("0") }
        if tests.count == 1 { return tests[0] }
        return .combine(tests) { "(" + $0.joined(separator: " OR ") + ")" }
    }
}

extension PredicateExpressions.ClosedRange: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        throw StoreError.unsupportedPredicate("a range is supported only inside contains(_:)")
    }
}

extension PredicateExpressions.RangeExpressionContains: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        let item = try translation.translate(element)
        if let closed = range as? any ClosedRangeBounds {
            let bounds = try closed.boundsSQL(in: &translation)
            return SQLExpression("(\(item.sql) BETWEEN \(bounds.0.sql) AND \(bounds.1.sql))",
                                 item.arguments + bounds.0.arguments + bounds.1.arguments)
        }
        if let halfOpen = range as? any HalfOpenRangeBounds {
            let bounds = try halfOpen.boundsSQL(in: &translation)
            return SQLExpression("(\(item.sql) >= \(bounds.0.sql) AND \(item.sql) < \(bounds.1.sql))",
                                 item.arguments + bounds.0.arguments + item.arguments + bounds.1.arguments)
        }
        throw StoreError.unsupportedPredicate("contains(_:) on a range is supported for a...b and a..<b written in the predicate")
    }
}

protocol ClosedRangeBounds {
    func boundsSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> (SQLExpression, SQLExpression)
}

protocol HalfOpenRangeBounds {
    func boundsSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> (SQLExpression, SQLExpression)
}

extension PredicateExpressions.ClosedRange: ClosedRangeBounds {
    func boundsSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> (SQLExpression, SQLExpression) {
        (try translation.translate(lower), try translation.translate(upper))
    }
}

extension PredicateExpressions.Range: HalfOpenRangeBounds {
    func boundsSQL<Model>(in translation: inout PredicateTranslation<Model>) throws -> (SQLExpression, SQLExpression) {
        (try translation.translate(lower), try translation.translate(upper))
    }
}

/// `text.contains("word")`: case- and diacritic-sensitive, as in Swift.
extension PredicateExpressions.CollectionContainsCollection: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        guard Base.Output.self == String.self, Other.Output.self == String.self else {
            throw StoreError.unsupportedPredicate("contains(_:) between collections is supported for strings only")
        }
        let parts = [try translation.translate(base), try translation.translate(other)]
        return .combine(parts) { "(instr(\($0[0]), \($0[1])) > 0)" }
    }
}

/// `text.starts(with: "prefix")`.
extension PredicateExpressions.SequenceStartsWith: SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression {
        guard Base.Output.self == String.self, Prefix.Output.self == String.self else {
            throw StoreError.unsupportedPredicate("starts(with:) is supported for strings only")
        }
        let parts = [try translation.translate(base), try translation.translate(prefix)]
        return .combine(parts) { "(instr(\($0[0]), \($0[1])) = 1)" }
    }
}

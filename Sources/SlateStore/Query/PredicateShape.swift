import Foundation
import Synchronization

// A predicate asked again with other values (the same count for another list) is not
// walked and written out again: its SQLite text is kept by shape.
//
// The shape of a predicate is its expression's type — which fixes every node and child —
// plus the few things a node holds besides its children that change the SQL: key paths
// and operators. For the nodes below, SQLite's text depends on nothing else, and each
// captured value is bound as one `?` in the order the tree is read, so a walk that only
// collects key paths, operators and values (static calls, no dynamic cast per node) is
// enough to reuse an earlier translation. A tree with any other node (a captured array,
// text tests, `flatMap`) is translated in full every time; so is every PostgreSQL
// predicate, whose text depends on which values are nil.

/// What a predicate's SQLite text depends on besides its type, and the values it binds.
struct PredicateShape {
    var keyPaths: [AnyKeyPath] = []
    var operators: [Int] = []
    /// The captured values, in the order the translation binds them.
    var arguments: [DatabaseValue] = []

    /// Adds each child's shape, left to right (a static call per child, no cast).
    mutating func add<each Child: SQLiteShaped>(_ children: repeat each Child) throws {
        for child in repeat each children { try child.addShape(to: &self) }
    }
}

/// A node whose SQLite text is fixed by its type, key paths and operators, and that binds
/// its captured values in tree order. Conformances are conditional on the children's, so
/// one cast of the root tells whether a whole tree qualifies.
protocol SQLiteShaped {
    /// Adds this node's key paths, operators and bound values, children first, left to right.
    /// Throws when the shape cannot stand for the node (the full translation then decides).
    func addShape(to shape: inout PredicateShape) throws
}

/// Thrown by a shape walk that cannot stand for its node; `PredicateTranslation.shape(of:alias:)` catches it.
struct ShapeUnavailable: Error {}

extension PredicateExpressions.Variable: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {}
}

extension PredicateExpressions.NilLiteral: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {}
}

extension PredicateExpressions.Value: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        guard let bound = databaseValue(ofAny: value) else { throw ShapeUnavailable() }
        shape.arguments.append(bound)
    }
}

extension PredicateExpressions.KeyPath: SQLiteShaped where Root: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        try root.addShape(to: &shape)
        shape.keyPaths.append(keyPath)
    }
}

extension PredicateExpressions.Equal: SQLiteShaped where LHS: SQLiteShaped, RHS: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        try shape.add(lhs, rhs)
    }
}

extension PredicateExpressions.NotEqual: SQLiteShaped where LHS: SQLiteShaped, RHS: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        try shape.add(lhs, rhs)
    }
}

extension PredicateExpressions.Comparison: SQLiteShaped where LHS: SQLiteShaped, RHS: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        let code =
            switch op {
            case .lessThan: 0
            case .lessThanOrEqual: 1
            case .greaterThan: 2
            case .greaterThanOrEqual: 3
            @unknown default: throw ShapeUnavailable()
            }
        shape.operators.append(code)
        try shape.add(lhs, rhs)
    }
}

extension PredicateExpressions.Conjunction: SQLiteShaped where LHS: SQLiteShaped, RHS: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        try shape.add(lhs, rhs)
    }
}

extension PredicateExpressions.Disjunction: SQLiteShaped where LHS: SQLiteShaped, RHS: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        try shape.add(lhs, rhs)
    }
}

extension PredicateExpressions.Negation: SQLiteShaped where Wrapped: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        try wrapped.addShape(to: &shape)
    }
}

extension PredicateExpressions.Conditional: SQLiteShaped
where Test: SQLiteShaped, If: SQLiteShaped, Else: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        try shape.add(test, trueBranch, falseBranch)
    }
}

extension PredicateExpressions.Arithmetic: SQLiteShaped where LHS: SQLiteShaped, RHS: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        let code =
            switch op {
            case .add: 0
            case .subtract: 1
            case .multiply: 2
            @unknown default: throw ShapeUnavailable()
            }
        shape.operators.append(code)
        try shape.add(lhs, rhs)
    }
}

extension PredicateExpressions.NilCoalesce: SQLiteShaped where LHS: SQLiteShaped, RHS: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        try shape.add(lhs, rhs)
    }
}

extension PredicateExpressions.ForcedUnwrap: SQLiteShaped where Inner: SQLiteShaped {
    func addShape(to shape: inout PredicateShape) throws {
        try inner.addShape(to: &shape)
    }
}

/// SQLite translations of predicates by shape (see the top of this file).
final class PredicateShapeCache: Sendable {
    struct Key: Hashable, @unchecked Sendable {
        // `@unchecked`: key paths are immutable once made.
        let model: ObjectIdentifier
        let expression: ObjectIdentifier
        let alias: String
        let keyPaths: [AnyKeyPath]
        let operators: [Int]
    }

    /// A translation with its values taken out: which argument each `==` column was fixed to.
    struct Template: Sendable {
        enum Fixed: Sendable {
            case argument(Int)
            case null
        }

        let sql: String
        let equalities: [(column: String, value: Fixed)]?

        /// Nil when the translation's values cannot be told apart by position: it did not
        /// bind exactly the walk's values in order, or an `==` value occurs twice.
        init?(_ clause: SQLExpression, arguments: [DatabaseValue]) {
            guard clause.arguments == arguments else { return nil }
            sql = clause.sql
            guard let fixed = clause.equalities else {
                equalities = nil
                return
            }
            var equalities: [(column: String, value: Fixed)] = []
            for (column, value) in fixed {
                let positions = arguments.indices.filter { arguments[$0] == value }
                if value.isNull, positions.isEmpty {
                    equalities.append((column, .null))
                } else if positions.count == 1 {
                    equalities.append((column, .argument(positions[0])))
                } else {
                    return nil
                }
            }
            self.equalities = equalities
        }

        /// The translation with these values bound.
        func clause(binding arguments: [DatabaseValue]) -> SQLExpression {
            var clause = SQLExpression(sql, arguments)
            clause.equalities = equalities?.map { column, fixed in
                switch fixed {
                case .argument(let index): (column, arguments[index])
                case .null: (column, .null)
                }
            }
            return clause
        }
    }

    /// Beyond this many shapes, the cache starts over.
    static let capacity = 1024
    static let shared = PredicateShapeCache()

    private let templates = Mutex<[Key: Template]>([:])

    func template(for key: Key) -> Template? {
        templates.withLock { $0[key] }
    }

    func remember(_ template: Template, for key: Key) {
        templates.withLock { templates in
            if templates.count >= Self.capacity { templates.removeAll(keepingCapacity: true) }
            templates[key] = template
        }
    }
}

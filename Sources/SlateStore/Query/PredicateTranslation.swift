import Foundation

/// Walks a Foundation `Predicate` and writes the equivalent parameterised SQL.
///
/// Each supported expression node conforms to `SQLTranslatable` in one of the
/// `Predicate+*.swift` files; a node that does not conform is named in the error.
struct PredicateTranslation<Model: PersistentModel> {
    enum Binding {
        /// The predicate's input: the model row itself.
        case model
        /// A value bound by `flatMap` / `if let`: stands for an SQL expression.
        case value(SQLExpression)
    }

    let schema: ModelSchema<Model>
    let tableAlias: String
    /// Which SQL to write: PostgreSQL's nodes are in `PostgreSQL/Predicate+PostgreSQL*.swift`.
    let dialect: SQLDialect
    var variables: [PredicateExpressions.VariableID: Binding] = [:]

    init(schema: ModelSchema<Model>, tableAlias: String, dialect: SQLDialect = .sqlite) {
        self.schema = schema
        self.tableAlias = tableAlias
        self.dialect = dialect
    }

    /// The SQL of a whole predicate, ready to follow `WHERE`. A SQLite predicate of a shape
    /// translated before is not walked again (`PredicateShapeCache`).
    static func whereClause(for predicate: Predicate<Model>, alias: String, dialect: SQLDialect = .sqlite) throws -> SQLExpression {
        guard dialect == .sqlite, let (key, arguments) = shape(of: predicate, alias: alias) else {
            return try translated(predicate, alias: alias, dialect: dialect)
        }
        if let template = PredicateShapeCache.shared.template(for: key) {
            return template.clause(binding: arguments)
        }
        let clause = try translated(predicate, alias: alias, dialect: dialect)
        if let template = PredicateShapeCache.Template(clause, arguments: arguments) {
            PredicateShapeCache.shared.remember(template, for: key)
        }
        return clause
    }

    /// The cache key of a predicate whose every node has a SQLite shape, and the values it
    /// binds; nil for any other predicate.
    static func shape(of predicate: Predicate<Model>, alias: String) -> (PredicateShapeCache.Key, [DatabaseValue])? {
        guard let shaped = predicate.expression as? any SQLiteShaped else { return nil }
        var shape = PredicateShape()
        do {
            try shaped.addShape(to: &shape)
        } catch {
            return nil
        }
        let key = PredicateShapeCache.Key(
            model: ObjectIdentifier(Model.self), expression: ObjectIdentifier(type(of: predicate.expression)),
            alias: alias, keyPaths: shape.keyPaths, operators: shape.operators)
        return (key, shape.arguments)
    }

    /// The SQL of a whole predicate, walked node by node.
    static func translated(_ predicate: Predicate<Model>, alias: String, dialect: SQLDialect) throws -> SQLExpression {
        var translation = PredicateTranslation(schema: Model.schema, tableAlias: alias, dialect: dialect)
        translation.variables[predicate.variable.key] = .model
        let clause = try translation.translate(predicate.expression)
        return dialect == .postgreSQL ? clause.asCondition : clause
    }

    /// Translates one node, or throws naming the node that has no SQL form.
    mutating func translate(_ expression: Any) throws -> SQLExpression {
        if dialect == .postgreSQL {
            guard let node = expression as? any PostgreSQLTranslatable else {
                throw StoreError.unsupportedPredicate(Self.nodeName(expression))
            }
            return try node.postgreSQL(in: &self)
        }
        guard let node = expression as? any SQLTranslatable else {
            throw StoreError.unsupportedPredicate(Self.nodeName(expression))
        }
        return try node.sql(in: &self)
    }

    /// The column stored at `keyPath` on the model, qualified with the table alias.
    func column(_ keyPath: AnyKeyPath) throws -> SQLExpression {
        let column = try schema.requiredColumn(for: keyPath)
        var expression = SQLExpression("\(tableAlias).\(quote(column.name))", rawValueKeyPath: column.rawValueKeyPath)
        expression.columnName = column.name
        expression.nullness = column.isOptional ? .maybe : .never
        return expression
    }

    /// A readable name for an expression node: its type without generic arguments.
    static func nodeName(_ expression: Any) -> String {
        let full = String(describing: type(of: expression))
        let name = full.prefix { $0 != "<" }
        return "PredicateExpressions.\(name) is not supported in SQL (\(full))"
    }
}

/// An expression node that has an SQL form.
protocol SQLTranslatable {
    func sql<Model>(in translation: inout PredicateTranslation<Model>) throws -> SQLExpression
}

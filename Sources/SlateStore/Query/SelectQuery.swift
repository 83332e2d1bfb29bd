import Foundation

/// A fetch descriptor compiled to one SELECT.
struct SelectQuery<Model: PersistentModel> {
    static var alias: String { "t" }

    let from: String
    let whereSQL: String
    let arguments: [DatabaseValue]
    let orderBy: String
    /// Each column the descriptor fixes and its value, when its whole filter is `==` tests
    /// of columns joined by AND and there is no search text (what a count index answers).
    let equalities: [String: DatabaseValue]?
    let dialect: SQLDialect
    /// Bound in ORDER BY (PostgreSQL's search rank), after `arguments`.
    let orderArguments: [DatabaseValue]

    /// `ordered: false` leaves out the descriptor's order (a count's), unless a translation
    /// key asks for the whole translation to be kept.
    init(_ descriptor: FetchDescriptor<Model>, dialect: SQLDialect = .sqlite, ordered: Bool = true) throws {
        guard let shape = EqualityQueries.shape(of: descriptor, dialect: dialect, ordered: ordered) else {
            try self.init(translating: descriptor, dialect: dialect, ordered: ordered)
            return
        }
        if let text = EqualityQueries.shared.value(of: Model.self, dialect: dialect, key: shape) {
            self.init(from: text.from, whereSQL: text.whereSQL, orderBy: text.orderBy, columns: text.columns,
                      values: descriptor.equalityFilters.map(\.value), after: nil, dialect: dialect)
            return
        }
        try self.init(translating: descriptor, dialect: dialect, ordered: ordered)
        let columns = try descriptor.equalityFilters.map { try Model.schema.requiredColumn(for: $0.keyPath).name }
        EqualityQueries.shared.remember(EqualityQueries.Text(from: from, whereSQL: whereSQL, orderBy: orderBy, columns: columns),
                                        of: Model.self, dialect: dialect, key: shape)
    }

    /// A query whose WHERE text was kept — a descriptor of `where(_:is:)` filters alone
    /// (`EqualityQueries`), or a keyed translation with its equality filters
    /// (`TranslationCache`): `base`'s arguments and fixed columns first, then `values` bound
    /// for `columns` as writing the filters out binds them.
    private init(
        from: String, whereSQL: String, orderBy: String, columns: [String], values: [DatabaseValue],
        after base: TranslationCache.Parts?, dialect: SQLDialect
    ) {
        (self.from, self.whereSQL, self.orderBy) = (from, whereSQL, orderBy)
        orderArguments = base?.orderArguments ?? []
        self.dialect = dialect
        // As `SQLDialect.sameValue` binds them: PostgreSQL writes `IS NULL` for a nil.
        arguments = (base?.arguments ?? []) + (dialect == .postgreSQL ? values.filter { !$0.isNull } : values)
        var equalities: [String: DatabaseValue]? = if let base { base.equalities } else { [:] }
        for (column, value) in zip(columns, values) { Self.fix(column, to: value, in: &equalities) }
        self.equalities = equalities
    }

    /// Notes that the query fixes `column` to `value`. A column fixed twice to different
    /// values matches nothing: left to SQL, and no column counts as fixed.
    private static func fix(_ column: String, to value: DatabaseValue, in equalities: inout [String: DatabaseValue]?) {
        if let other = equalities?.updateValue(value, forKey: column), other != value { equalities = nil }
    }

    /// The query of `descriptor` written out, never from `EqualityQueries`' kept texts (what
    /// they are checked against); a descriptor with a `translationKey` reuses what was kept
    /// under its key (`TranslationCache`), the WHERE text too when its equality filters have
    /// the shape of those it was written with.
    init(translating descriptor: FetchDescriptor<Model>, dialect: SQLDialect, ordered: Bool) throws {
        guard let key = descriptor.translationKey else {
            try self.init(descriptor, parts: try Self.translate(descriptor, dialect: dialect, ordered: ordered), dialect: dialect)
            return
        }
        let filterShape = EqualityQueries.FilterShape(descriptor, dialect: dialect)
        guard let cached = TranslationCache.shared.value(of: Model.self, dialect: dialect, key: key) else {
            let parts = try Self.translate(descriptor, dialect: dialect, ordered: true)
            try self.init(descriptor, parts: parts, dialect: dialect, keepingUnder: key, filterShape: filterShape)
            return
        }
        if let filterShape, let text = cached.filterText, text.shape == filterShape {
            self.init(from: cached.from, whereSQL: text.whereSQL, orderBy: cached.orderBy, columns: text.columns,
                      values: descriptor.equalityFilters.map(\.value), after: cached, dialect: dialect)
        } else {
            try self.init(descriptor, parts: cached, dialect: dialect)
        }
    }

    /// `parts` with the equality filters and membership lists of `descriptor` written out
    /// after them; kept under `key` (with the filters' text) when one is given.
    private init(
        _ descriptor: FetchDescriptor<Model>, parts: TranslationCache.Parts, dialect: SQLDialect,
        keepingUnder key: AnyHashable? = nil, filterShape: EqualityQueries.FilterShape? = nil
    ) throws {
        (from, orderBy, orderArguments) = (parts.from, parts.orderBy, parts.orderArguments)
        self.dialect = dialect
        // Equality filters are not part of the cached translation (its key need not name
        // their values): each is one `column = value` test, added here every time.
        var conditions = parts.conditions
        var arguments = parts.arguments
        var equalities = parts.equalities
        var filtered: [String] = []
        for (keyPath, value) in descriptor.equalityFilters {
            let column = try Model.schema.requiredColumn(for: keyPath).name
            let test = dialect.sameValue("\(Self.alias).\(quote(column))", value)
            conditions.append("(\(test.sql))")
            arguments += test.arguments
            filtered.append(column)
            Self.fix(column, to: value, in: &equalities)
        }
        // Membership lists, like equality filters, are written here every time: one `IN`
        // test of bound values (a NULL in the list matches a NULL column, as in Swift).
        for (keyPath, values) in descriptor.membershipFilters {
            let column = try Model.schema.requiredColumn(for: keyPath)
            let name = "\(Self.alias).\(quote(column.name))"
            let present = values.filter { !$0.isNull }
            var tests: [String] = []
            if !present.isEmpty { tests.append("\(name) IN (\(Array(repeating: "?", count: present.count).joined(separator: ", ")))") }
            if present.count < values.count { tests.append("\(name) IS NULL") }
            conditions.append(tests.isEmpty ? "(1 = 0)" : "(" + tests.joined(separator: " OR ") + ")")
            arguments += present
            equalities = nil
        }
        self.whereSQL = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        self.arguments = arguments
        self.equalities = equalities
        if let key {
            // Kept with the text its equality filters made, for the next query of the key
            // with filters on the same columns (nothing to look up or write out again).
            var kept = parts
            kept.filterText = filterShape.map { TranslationCache.FilterText(shape: $0, whereSQL: whereSQL, columns: filtered) }
            TranslationCache.shared.remember(kept, of: Model.self, dialect: dialect, key: key)
        }
    }

    private static func translate(_ descriptor: FetchDescriptor<Model>, dialect: SQLDialect, ordered: Bool) throws -> TranslationCache.Parts {
        let schema = Model.schema
        let alias = Self.alias
        var from = "\(quote(schema.tableName)) AS \(alias)"
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []
        var order: [String] = []
        var orderArguments: [DatabaseValue] = []
        var equalities: [String: DatabaseValue]? = [:]
        if dialect == .postgreSQL, let query = SearchDocument.query(for: descriptor.searchText) {
            equalities = nil
            guard !schema.searchableColumns.isEmpty else {
                throw StoreError.invalidSchema("\(Model.self) declares no searchable columns")
            }
            // The GIN index on `_search` serves the match; ts_rank orders by it when asked.
            conditions.append("\(alias).\"_search\" @@ CAST(? AS tsquery)")
            arguments.append(.text(query))
            if descriptor.ranksBySearch {
                order.append("ts_rank(\(alias).\"_search\", CAST(? AS tsquery)) DESC")
                orderArguments.append(.text(query))
            }
        } else if dialect == .sqlite, let query = TextSearch.matchQuery(for: descriptor.searchText) {
            equalities = nil
            guard !schema.searchableColumns.isEmpty else {
                throw StoreError.invalidSchema("\(Model.self) declares no searchable columns")
            }
            let fts = quote(schema.tableName + "_fts")
            // The search table comes first (CROSS JOIN fixes the order): the MATCH runs once
            // and only its rows are looked up. With a plain JOIN SQLite may walk an index of
            // the model table instead and run the MATCH once per row: 0.4 s at 10,000 tasks.
            from = "\(fts) CROSS JOIN " + from + " ON \(fts).rowid = \(alias).\"_pk\""
            conditions.append("\(fts) MATCH ?")
            arguments.append(.text(query))
            if descriptor.ranksBySearch { order.append("\(fts).rank") }
        }
        if let pieces = TextSearch.literalPieces(of: descriptor.searchText) {
            // What the index cannot find (symbols; words of a script without spaces, whose
            // run the tokenizer keeps whole): each piece is looked for in the searchable text
            // itself. Without this a search of symbols was dropped and every row matched.
            equalities = nil
            guard !schema.searchableColumns.isEmpty else {
                throw StoreError.invalidSchema("\(Model.self) declares no searchable columns")
            }
            let find = dialect == .sqlite ? "instr" : "strpos"
            for piece in pieces {
                let tests = schema.searchableColumns.map { "\(find)(\(alias).\(quote($0)), ?) > 0" }
                conditions.append("(" + tests.joined(separator: " OR ") + ")")
                arguments += Array(repeating: .text(piece), count: tests.count)
            }
        }
        // The predicate, then the filters, without an array of them: this runs unspecialised
        // for every fetch, and each generic array costs a run-time metadata lookup.
        for index in (descriptor.predicate == nil ? 0 : -1)..<descriptor.filters.count {
            let predicate = index < 0 ? descriptor.predicate! : descriptor.filters[index]
            let clause = try PredicateTranslation.whereClause(for: predicate, alias: alias, dialect: dialect)
            conditions.append(clause.sql)
            arguments += clause.arguments
            if let fixed = clause.equalities, equalities != nil {
                for (column, value) in fixed { fix(column, to: value, in: &equalities) }
            } else {
                equalities = nil
            }
        }
        var orderBy = ""
        if ordered {
            order += try descriptor.sortBy.map { try $0.sql(alias: alias, dialect: dialect) }
            order.append("\(alias).\"_pk\"")
            orderBy = " ORDER BY " + order.joined(separator: ", ")
        }
        return TranslationCache.Parts(
            from: from, conditions: conditions, arguments: arguments, orderBy: orderBy,
            orderArguments: orderArguments, equalities: equalities)
    }

    /// The SELECT for the rows, with limit and offset.
    func selectSQL(limit: Int?, offset: Int?) -> (String, [DatabaseValue]) {
        // The schema's list, written once (it names the table `t`, this query's alias).
        var sql = "SELECT \(Model.schema.selectList) FROM \(from)\(whereSQL)\(orderBy)"
        var arguments = self.arguments + orderArguments
        if limit != nil || offset != nil {
            let page = dialect.limit(limit, offset: offset)
            sql += page.sql
            arguments += page.arguments
        }
        return (sql, arguments)
    }

    /// The SELECT for the ids and revisions of the rows, with limit and offset.
    func identitySQL(limit: Int?, offset: Int?) -> (String, [DatabaseValue]) {
        var sql = "SELECT \(Self.alias).\"id\", \(Self.alias).\"_rev\" FROM \(from)\(whereSQL)\(orderBy)"
        var arguments = self.arguments + orderArguments
        if limit != nil || offset != nil {
            let page = dialect.limit(limit, offset: offset)
            sql += page.sql
            arguments += page.arguments
        }
        return (sql, arguments)
    }

    /// The SELECT for the ids of the rows and their values in `column`, in order (no limit).
    func valuesSQL(column: String) -> (String, [DatabaseValue]) {
        ("SELECT \(Self.alias).\"id\", \(Self.alias).\(quote(column)) FROM \(from)\(whereSQL)\(orderBy)", arguments + orderArguments)
    }

    /// The SELECT for the number of matching rows.
    var countSQL: String { "SELECT count(*) FROM \(from)\(whereSQL)" }
}

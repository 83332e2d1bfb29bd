import Synchronization

/// A container's tables, each built from its model's schema the first time it is needed.
///
/// Building a table (its model's key paths and columns, its SQL texts) costs the Swift
/// runtime a first use of every generic type it names: for the twenty models of a task
/// board, about a tenth of a short command's time. A command that touches three models
/// builds three; a migration, a copy or a delete rule's look at every reference builds
/// them all (`all`).
final class TableCatalog: Sendable {
    private struct Built {
        var byModel: [ObjectIdentifier: TableSchema] = [:]
        var byName: [String: TableSchema] = [:]
        var isComplete = false
    }

    private let models: [any PersistentModel.Type]
    private let members: Set<ObjectIdentifier>
    private let built = Mutex(Built())

    init(_ models: [any PersistentModel.Type]) {
        self.models = models
        members = Set(models.map { ObjectIdentifier($0) })
    }

    /// The table of `model`, or nil when the model is not one of the container's.
    func table<Model: PersistentModel>(for model: Model.Type) -> TableSchema? {
        let key = ObjectIdentifier(model)
        guard members.contains(key) else { return nil }
        return built.withLock { built in
            if let table = built.byModel[key] { return table }
            let table = TableSchema(model)
            built.byModel[key] = table
            built.byName[table.tableName] = table
            return table
        }
    }

    /// The name of `model`'s table (building it the first time): a bulk insert asks once per
    /// row, and `TableSchema` is a class, so reading it out costs one reference.
    func tableName<Model: PersistentModel>(for model: Model.Type) -> String? {
        let key = ObjectIdentifier(model)
        guard members.contains(key) else { return nil }
        if let name = built.withLock({ $0.byModel[key]?.tableName }) { return name }
        return table(for: model)?.tableName
    }

    /// The table named `name`: one built already, else found among all of them.
    subscript(name: String) -> TableSchema? {
        if let table = built.withLock({ $0.byName[name] }) { return table }
        return all[name]
    }

    /// Every table, by name (building the ones not built yet).
    var all: [String: TableSchema] {
        built.withLock { built in
            guard !built.isComplete else { return built.byName }
            for model in models where built.byModel[ObjectIdentifier(model)] == nil {
                let table = TableSchema(model)
                built.byModel[ObjectIdentifier(model)] = table
                // Two models on one table: the first keeps the name (`validated` refuses it).
                if built.byName[table.tableName] == nil { built.byName[table.tableName] = table }
            }
            built.isComplete = true
            return built.byName
        }
    }

    /// Every table in name order, after checking the declarations: each table's own
    /// (`TableSchema.validate`), one model per table, and every reference to a table of
    /// the container.
    func validated() throws -> [TableSchema] {
        _ = all
        let byModel = built.withLock { $0.byModel }
        let tables = models.map { byModel[ObjectIdentifier($0)] ?? TableSchema($0) }
        var names: Set<String> = []
        for table in tables {
            try table.validate()
            guard names.insert(table.tableName).inserted else {
                throw StoreError.invalidSchema("two models use the table '\(table.tableName)'")
            }
        }
        for table in tables {
            for column in table.columns {
                if let target = column.reference?.tableName, !names.contains(target) {
                    throw StoreError.invalidSchema(
                        "\(table.modelName).\(column.name) refers to table '\(target)', whose model is not in the container")
                }
            }
        }
        return tables.sorted { $0.tableName < $1.tableName }
    }
}

import Foundation
@testable import SlateStore
import Testing

// Every failure the store can meet gives a typed `StoreError` that says what happened;
// none of them crashes, and a failed save writes nothing.

extension Item {
    /// Computed, not stored: the store has no column for it.
    var titleInCapitals: String { title.uppercased() }
}

/// True for the errors SQLite gives on a damaged file, however the store surfaces them.
private func isCorruption(_ error: StoreError) -> Bool {
    switch error {
    case .cannotOpen(_, let reason): reason.contains("corrupt") || reason.contains("not a SQLite database")
    case .sqlite(let details): details.primaryCode == 11 || details.primaryCode == 26  // CORRUPT, NOTADB
    default: false
    }
}

@Suite struct OpenErrorTests {
    @Test func garbageFileIsNotADatabaseAndIsLeftAsItWas() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("garbage.sqlite")
        let garbage = Data(String(repeating: "This is a shopping list, not a database.\n", count: 200).utf8)
        try garbage.write(to: URL(fileURLWithPath: path))

        for readOnly in [false, true] {
            #expect {
                try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path, isReadOnly: readOnly))
            } throws: { error in
                guard case StoreError.cannotOpen(let reportedPath, let reason) = error else { return false }
                return reportedPath == path && reason.contains("not a SQLite database")
                    && "\(error)".contains("Cannot open the database at \(path)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func damagedPagesGiveACorruptionErrorNotACrash() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("damaged.sqlite")
        do {
            let context = ModelContext(try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path)))
            for number in 0..<300 {
                context.insert(Item(title: "item \(number)", notes: String(repeating: "notes \(number) ", count: 40)))
            }
            try context.save()
        }
        // Fold the write-ahead log into the file, so that the pages below hold the rows.
        try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        // Keep the header page, overwrite everything after it.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try #require(size > 16 * 4096)
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) - 4096))
        try handle.close()

        var failure: (any Error)?
        do {
            let context = ModelContext(try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path)))
            _ = try context.fetch(FetchDescriptor<Item>())
        } catch {
            failure = error
        }
        let error = try #require(failure as? StoreError, "reading a damaged file must fail with a StoreError, got \(String(describing: failure))")
        #expect(isCorruption(error), "\(error)")
        #expect("\(error)".contains("malformed") || "\(error)".contains("corrupt"))
    }

    @Test func missingFolderIsNamedAndNotCreated() throws {
        let folder = try TemporaryDirectory()
        let missing = folder.path("no-such-folder")
        let path = missing + "/store.sqlite"
        #expect {
            try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path))
        } throws: { error in
            guard case StoreError.cannotOpen(let reportedPath, let reason) = error else { return false }
            return reportedPath == path && reason.contains(missing) && reason.contains("does not exist")
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func readOnlyOpenOfAMissingFileIsCannotOpen() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("absent.sqlite")
        #expect {
            try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path, isReadOnly: true))
        } throws: { error in
            guard case StoreError.cannotOpen(let reportedPath, _) = error else { return false }
            return reportedPath == path
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

@Suite struct ReadOnlyAndLockErrorTests {
    /// A file store with two saved items.
    private func makeStore(at path: String) throws -> [Item] {
        let context = ModelContext(try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path)))
        let items = [Item(title: "Buy milk"), Item(title: "Call mum")]
        for item in items { context.insert(item) }
        try context.save()
        return items
    }

    @Test func readOnlyContainerReadsButRefusesToSave() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("store.sqlite")
        let items = try makeStore(at: path)

        let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path, isReadOnly: true))
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<Item>()) == items)

        context.insert(Item(title: "Write letter"))
        #expect(throws: StoreError.readOnly(path: path)) { try context.save() }
        #expect(context.hasChanges, "a failed save keeps the staged changes")

        context.rollback()
        var edited = items[0]
        edited.title = "Buy oat milk"
        context.update(edited)
        #expect(throws: StoreError.readOnly(path: path)) { try context.save() }
        #expect(try context.fetch(FetchDescriptor<Item>()) == items)
        #expect(StoreError.readOnly(path: path).description.contains("read-only"))
    }

    // Root ignores file permissions, so this runs only as an ordinary user (checked with
    // `setpriv --reuid=nobody`); as root, `readOnlyContainerReadsButRefusesToSave`
    // covers the same typed error through `isReadOnly`.
    @Test(.enabled(if: getuid() != 0, "root ignores file permissions"))
    func writeProtectedFileGivesReadOnlyError() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("store.sqlite")
        let items = try makeStore(at: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }

        // Opening for writing must run the (empty) migration transaction, which is refused.
        #expect(throws: StoreError.readOnly(path: path)) {
            try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path))
        }
        let context = ModelContext(
            try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path, isReadOnly: true)))
        #expect(try context.fetch(FetchDescriptor<Item>()) == items)
        context.insert(Item(title: "Write letter"))
        #expect(throws: StoreError.readOnly(path: path)) { try context.save() }
    }

    @Test func fileLockedByAnotherConnectionGivesBusy() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("store.sqlite")
        let items = try makeStore(at: path)
        let container = try ModelContainer(
            for: allModels, configuration: ModelConfiguration(path: path, busyTimeout: 0.2))
        let context = ModelContext(container)

        // Another connection (as another process would) takes the write lock and keeps it.
        let other = try SQLiteDatabase(path: path, mode: .create, busyTimeout: 0)
        try other.execute("BEGIN IMMEDIATE")
        try other.execute("UPDATE items SET title = 'uncommitted' WHERE 1")

        let extra = Item(title: "Water plants")
        context.insert(extra)
        #expect(throws: StoreError.busy(path: path)) { try context.save() }
        #expect(context.hasChanges)
        // A file already at the container's schema opens without writing, so opening does
        // not wait for the lock (readers never wait in WAL mode); saving through it does.
        let second = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path, busyTimeout: 0.2))
        let secondContext = ModelContext(second)
        secondContext.insert(Item(title: "Feed the cat"))
        #expect(throws: StoreError.busy(path: path)) { try secondContext.save() }
        // Reads still see the last committed state.
        #expect(try context.fetch(FetchDescriptor<Item>()) == items)
        #expect(StoreError.busy(path: path).description.contains("locked"))

        try other.execute("ROLLBACK")
        let commit = try #require(try context.save(), "the staged insert is written once the lock is gone")
        #expect(commit.revision == 2)
        #expect(try context.fetchCount(FetchDescriptor<Item>()) == 3)
    }
}

@Suite struct WriteErrorTests {
    @Test func uniqueViolationOnTheThirdInsertWritesNothing() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        context.insert(Project(name: "Home"))
        context.insert(Project(name: "Work"))
        context.insert(Project(name: "home"))  // the unique index ignores case
        #expect {
            try context.save()
        } throws: { error in
            guard case StoreError.constraintViolation(let table, let message) = error else { return false }
            return table == "projects" && message.contains("UNIQUE") && "\(error)".contains("projects")
        }
        #expect(try context.fetchCount(FetchDescriptor<Project>()) == 0)
        #expect(try container.currentRevision() == 0)
        #expect(try context.canUndo() == false)
        #expect(context.hasChanges)

        context.rollback()
        context.insert(Project(name: "Home"))
        context.insert(Project(name: "Work"))
        #expect(try context.save()?.revision == 1)
        #expect(try context.fetchCount(FetchDescriptor<Project>()) == 2)
    }

    @Test func insertingAnExistingIDIsAConstraintViolation() throws {
        let context = ModelContext(try makeContainer())
        let item = Item(title: "Original")
        context.insert(item)
        try context.save()

        var copy = item
        copy.title = "Copy"
        context.insert(Item(title: "Innocent bystander"))
        context.insert(copy)
        #expect {
            try context.save()
        } throws: { error in
            guard case StoreError.constraintViolation("items", let message) = error else { return false }
            return message.contains("items.id")
        }
        #expect(try context.fetch(FetchDescriptor<Item>()) == [item])
    }

    @Test func danglingReferenceFailsAtCommitAndLeavesNoTransactionOpen() throws {
        let container = try makeContainer()
        let context = ModelContext(container)
        let owner = Owner(name: "Ada")
        context.insert(owner)
        context.insert(Badge(label: "orphan", ownerID: UUID()))
        var failure: (any Error)?
        do { try context.save() } catch { failure = error }
        guard case StoreError.constraintViolation(let table, let message) = try #require(failure) else {
            Issue.record("expected constraintViolation, got \(String(describing: failure))")
            return
        }
        #expect(message.contains("FOREIGN KEY"))
        #expect(table == "badges")
        #expect(message == "a row refers to a missing owners row (FOREIGN KEY constraint failed)")
        #expect(try context.fetchCount(FetchDescriptor<Owner>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<Badge>()) == 0)

        // The deferred check failed at COMMIT: the next save must start a clean transaction.
        context.rollback()
        context.insert(owner)
        context.insert(Badge(label: "first", ownerID: owner.id))
        #expect(try context.save()?.revision == 1)
        #expect(try context.fetchCount(FetchDescriptor<Badge>()) == 1)
    }

    @Test func updatingOrDeletingAMissingRowIsNotFound() throws {
        let context = ModelContext(try makeContainer())
        let kept = Item(title: "Kept")
        context.insert(kept)
        try context.save()

        let ghost = Item(title: "Ghost")
        context.update(ghost)
        #expect(throws: StoreError.notFound(model: "Item", id: ghost.id)) { try context.save() }
        context.rollback()

        context.delete(Item.self, id: ghost.id)
        #expect(throws: StoreError.notFound(model: "Item", id: ghost.id)) { try context.save() }
        context.rollback()

        #expect(try context.fetch(FetchDescriptor<Item>()) == [kept])
        #expect(try context.container.currentRevision() == 1)
        #expect(StoreError.notFound(model: "Item", id: ghost.id).description == "No Item with id \(ghost.id).")
    }

    @Test func staleExpectedRevisionIsAConflict() throws {
        let context = ModelContext(try makeContainer())
        var item = Item(title: "Draft")
        context.insert(item)
        try context.save()
        let read = try #require(try context.revisioned(Item.self, id: item.id))
        #expect(read.revision == 1)

        item.title = "Edited elsewhere"
        context.update(item, expectedRevision: read.revision)
        try context.save()

        var mine = read.model
        mine.title = "My edit"
        context.update(mine, expectedRevision: read.revision)
        let expected = StoreError.conflict(model: "Item", id: item.id, expectedRevision: 1, actualRevision: 2)
        #expect(throws: expected) { try context.save() }
        context.rollback()
        context.delete(mine, expectedRevision: read.revision)
        #expect(throws: expected) { try context.save() }
        context.rollback()

        #expect(try context.model(Item.self, id: item.id)?.title == "Edited elsewhere")
        #expect(expected.description.contains("changed by someone else"))
        #expect(expected.description.contains("revision 2") && expected.description.contains("revision 1"))

        context.update(mine, expectedRevision: 2)
        #expect(try context.save()?.revision == 3)
    }
}

@Suite struct QueryErrorTests {
    private static let item = Item(title: "A")

    /// Predicates the translator refuses, and a word its error must contain.
    static let unsupported: [(String, Predicate<Item>, String)] = [
        ("character count", #Predicate<Item> { $0.title.count > 3 }, "has no SQL form"),
        ("contains(where:)", #Predicate<Item> { $0.title.contains { $0.isWhitespace } }, "SequenceContainsWhere"),
        ("allSatisfy", #Predicate<Item> { $0.title.allSatisfy { $0.isLetter } }, "SequenceAllSatisfy"),
        ("the model itself", #Predicate<Item> { $0 == item }, "model value"),
    ]

    @Test(arguments: 0..<unsupported.count)
    func unsupportedPredicateNamesTheConstruct(_ index: Int) throws {
        let (_, predicate, word) = Self.unsupported[index]
        let context = ModelContext(try makeContainer())
        context.insert(Item(title: "Tidy desk"))
        try context.save()

        let check: (any Error) -> Bool = { error in
            guard case StoreError.unsupportedPredicate(let node) = error else { return false }
            return node.contains(word) && "\(error)".contains("cannot be translated to SQL")
        }
        #expect(performing: { try context.fetch(FetchDescriptor(predicate: predicate)) }, throws: check)
        #expect(performing: { try context.fetchCount(FetchDescriptor(predicate: predicate)) }, throws: check)
        #expect(performing: { try context.delete(model: Item.self, where: predicate) }, throws: check)
        #expect(!context.hasChanges)
    }

    @Test func computedPropertyIsAnUnknownKeyPath() throws {
        let context = ModelContext(try makeContainer())
        context.insert(Item(title: "Tidy desk"))
        try context.save()

        let check: (any Error) -> Bool = { error in
            // The Swift runtime cannot name a computed property: its key path reads
            // `\Item.<computed 0x… (String)>`, so only the model and type are checked.
            guard case StoreError.unknownKeyPath(let model, let keyPath) = error else { return false }
            return model == "Item" && keyPath.hasPrefix("\\Item.")
                && "\(error)".contains("not a stored column of Item")
        }
        let predicate = #Predicate<Item> { $0.titleInCapitals == "TIDY DESK" }
        #expect(performing: { try context.fetch(FetchDescriptor(predicate: predicate)) }, throws: check)
        #expect(performing: {
            try context.fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(\.titleInCapitals)]))
        }, throws: check)
        #expect(performing: {
            try context.fetch(FetchDescriptor<Item>(sortKeys: [.descending(\.titleInCapitals)]))
        }, throws: check)
    }
}

@Suite struct ErrorDescriptionTests {
    static let id = UUID(uuidString: "6F1C2A4E-0000-4000-8000-000000000001")!

    static let cases: [(StoreError, [String])] = [
        (.newerSchema(fileVersion: 3, supportedVersion: 2), ["newer version", "schema 3", "up to 2", "not modified"]),
        (.migrationFailed(version: 2, reason: "boom"), ["Migration to schema 2 failed", "nothing was changed", "boom"]),
        (.cannotOpen(path: "/x/y.sqlite", reason: "the folder /x does not exist"), ["/x/y.sqlite", "/x does not exist"]),
        (.readOnly(path: "/x/y.sqlite"), ["/x/y.sqlite", "read-only"]),
        (.busy(path: "/x/y.sqlite"), ["/x/y.sqlite", "locked", "try again"]),
        (.unknownKeyPath(model: "Item", keyPath: "\\Item.shout"), ["\\Item.shout", "not a stored column of Item", "Item.schema"]),
        (.unsupportedPredicate("regex"), ["cannot be translated to SQL", "regex"]),
        (.constraintViolation(table: "projects", message: "UNIQUE constraint failed: projects.name"), ["projects", "UNIQUE"]),
        (.notFound(model: "Item", id: id), ["No Item", id.uuidString]),
        (.conflict(model: "Item", id: id, expectedRevision: 4, actualRevision: 7), ["Item", "revision 7", "revision 4"]),
        (.deleteDenied(model: "Owner", id: id, dependents: "Badge rows", count: 2), ["Cannot delete Owner", "2 Badge rows", ".deny"]),
    ]

    @Test(arguments: 0..<cases.count)
    func descriptionSaysWhatHappened(_ index: Int) {
        let (error, words) = Self.cases[index]
        for word in words { #expect(error.description.contains(word), "\(error.description)") }
        #expect(error.localizedDescription == error.description)
    }

    @Test func sqliteDescriptionHidesArgumentsUnlessAsked() {
        let details = SQLiteError(code: 2067, message: "UNIQUE constraint failed: items.id",
                                  sql: "INSERT INTO items (id) VALUES (?)", arguments: [.text("secret")])
        #expect(details.primaryCode == 19)
        #expect(details.description.contains("INSERT INTO items"))
        #expect(!details.description.contains("secret"))
        #expect(details.debugDescription.contains("secret"))
    }
}

import Foundation
@testable import SlateStore
import Synchronization
import Testing

// Versioned schemas: a real version-1 file, written by the test, is opened by
// version-2 code (inferred changes plus a custom stage in Swift), and a version-2
// file is refused by version-1 code without being touched.

/// Version 1 of the app's notes.
enum NotesV1 {
    struct Note: PersistentModel, Equatable {
        var id = UUID()
        var title: String
        var rank: Int

        static let schema = ModelSchema<Note>(
            table: "notes",
            columns: [.column(\.title, "title"), .column(\.rank, "rank")],
            searchable: ["title"]
        )
    }

    static let models: [any PersistentModel.Type] = [Note.self]

    static func configuration(_ path: String, readOnly: Bool = false) -> ModelConfiguration {
        ModelConfiguration(path: path, schemaVersion: 1, isReadOnly: readOnly)
    }

    /// Titles whose Swift character count differs from SQLite's `length()`, so only a
    /// backfill written in Swift gets them right.
    static let sampleNotes = [
        Note(title: "Plan the trip", rank: 1),
        Note(title: "Cafe\u{301} au lait", rank: 2),
        Note(title: "👨‍👩‍👧 family dinner", rank: 3),
    ]

    /// Writes a version-1 file with the sample notes, saved in two commits.
    static func writeFile(at path: String) throws {
        let context = ModelContext(try ModelContainer(for: models, configuration: configuration(path)))
        context.insert(sampleNotes[0])
        try context.save()
        context.insert(sampleNotes[1])
        context.insert(sampleNotes[2])
        try context.save()
    }
}

/// Version 2: new optional, defaulted and backfilled columns, an index, a new table
/// referenced from notes, and one more searchable column.
enum NotesV2 {
    struct Note: PersistentModel, Equatable {
        var id = UUID()
        var title: String
        var rank: Int
        var summary: String? = nil
        var priority: Int = 3
        var titleLength: Int = 0
        var tagID: UUID? = nil

        static let schema = ModelSchema<Note>(
            table: "notes",
            columns: [
                .column(\.title, "title"), .column(\.rank, "rank"), .column(\.summary, "summary"),
                .column(\.priority, "priority", default: 3), .column(\.titleLength, "titleLength", default: 0),
            ],
            references: [.reference(\.tagID, "tagID", to: Tag.self, onDelete: .nullify)],
            indexes: [Index("notes_by_priority", on: ["priority", "rank"])],
            searchable: ["title", "summary"]
        )
    }

    struct Tag: PersistentModel, Equatable {
        var id = UUID()
        var name: String

        static let schema = ModelSchema<Tag>(
            table: "tags", columns: [.column(\.name, "name")],
            indexes: [Index("tags_by_name", on: ["name"], unique: true)])
    }

    static let models: [any PersistentModel.Type] = [Note.self, Tag.self]

    /// Fills `titleLength` with Swift's character count and writes a summary that the
    /// search index must pick up.
    static let backfill = MigrationStage.custom(to: 2, "count title characters", didMigrate: { database in
        for row in try database.rows("SELECT id, title FROM notes") {
            let title = String.fromDatabaseValue(row["title"]) ?? ""
            try database.execute(
                "UPDATE notes SET titleLength = ?, summary = ? WHERE id = ?",
                [.integer(Int64(title.count)), .text("migrated \(title.split(separator: " ").last ?? "")"), row["id"]])
        }
    })

    static func configuration(_ path: String, stages: [MigrationStage] = [backfill], readOnly: Bool = false)
        -> ModelConfiguration
    {
        ModelConfiguration(path: path, schemaVersion: 2, migrations: stages, isReadOnly: readOnly)
    }
}

/// Version 2 with a mistake: a required column without a default.
enum NotesV2Required {
    struct Note: PersistentModel {
        var id = UUID()
        var title: String
        var rank: Int
        var priority: Int

        static let schema = ModelSchema<Note>(
            table: "notes",
            columns: [.column(\.title, "title"), .column(\.rank, "rank"), .column(\.priority, "priority")],
            searchable: ["title"])
    }
}

/// Version 2 that no longer has `rank`.
enum NotesV2WithoutRank {
    struct Note: PersistentModel, Equatable {
        var id = UUID()
        var title: String

        static let schema = ModelSchema<Note>(table: "notes", columns: [.column(\.title, "title")], searchable: ["title"])
    }
}

/// Looks inside a closed store file with a plain connection.
private func inspect<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
    let database = try SQLiteDatabase(path: path, mode: .existing, busyTimeout: 5)
    return try body(database)
}

private func schemaVersion(_ database: Database) throws -> Int? {
    Int.fromDatabaseValue(try database.scalar("SELECT value FROM _slate_meta WHERE key = 'schema_version'") ?? .null)
}

private func columnNames(_ table: String, _ database: Database) throws -> [String] {
    try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { String.fromDatabaseValue($0["name"]) }
}

/// The `-wal` and `-shm` files that exist beside the store file.
private func sidecars(of path: String) -> [String] {
    ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) }
}

private func schemaObjectNames(_ database: Database) throws -> Set<String> {
    Set(try database.rows("SELECT name FROM sqlite_master").compactMap { String.fromDatabaseValue($0["name"]) })
}

/// Collects what migration steps ran, from their `@Sendable` closures.
private final class StageLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private struct DeliberateFailure: Error, CustomStringConvertible {
    var description: String { "the backfill hit a row it cannot convert" }
}

@Suite struct MigrationTests {
    @Test func versionOneFileOpensWithVersionTwoCodeKeepingEveryRow() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        try NotesV1.writeFile(at: path)
        #expect(try inspect(path, schemaVersion) == 1)

        let container = try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(path))
        let context = ModelContext(container)
        let notes = try context.fetch(FetchDescriptor<NotesV2.Note>(sortBy: [SortDescriptor(\.rank)]))

        // Every row kept, new columns filled: nil, the schema default, the Swift backfill.
        #expect(notes.map(\.id) == NotesV1.sampleNotes.map(\.id))
        #expect(notes.map(\.title) == NotesV1.sampleNotes.map(\.title))
        #expect(notes.map(\.rank) == [1, 2, 3])
        #expect(notes.allSatisfy { $0.priority == 3 && $0.tagID == nil })
        #expect(notes.map(\.titleLength) == NotesV1.sampleNotes.map(\.title.count))
        #expect(notes.map(\.titleLength) == [13, 12, 15])
        #expect(notes.map(\.summary) == ["migrated trip", "migrated lait", "migrated dinner"])

        let (version, objects, noteColumns) = try container.pool.read {
            (try schemaVersion($0), try schemaObjectNames($0), try columnNames("notes", $0))
        }
        #expect(version == 2)
        #expect(objects.isSuperset(of: ["notes_by_priority", "tags", "tags_by_name", "notes__tagID__set", "notes_fts"]))
        #expect(Set(noteColumns).isSuperset(of: ["summary", "priority", "titleLength", "tagID"]))
        // The upgrade is one commit: every row gets its revision, so sync clients refetch.
        #expect(try container.currentRevision() == 3)
        #expect(try context.fetchRevisioned(FetchDescriptor<NotesV2.Note>()).map(\.revision) == [3, 3, 3])
        #expect(try context.changes(of: NotesV2.Note.self, since: 2).upserted.count == 3)

        // The search index was rebuilt for the new column list: old titles (without
        // diacritics) and the summaries written by the stage are both found.
        var byTitle = FetchDescriptor<NotesV2.Note>()
        byTitle.searchText = "cafe"
        #expect(try context.fetch(byTitle).map(\.id) == [NotesV1.sampleNotes[1].id])
        var bySummary = FetchDescriptor<NotesV2.Note>()
        bySummary.searchText = "migrated"
        #expect(try context.fetchCount(bySummary) == 3)
        try container.pool.write { try $0.execute("INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')") }

        // The new table and reference work.
        let tag = NotesV2.Tag(name: "home")
        var note = notes[0]
        note.tagID = tag.id
        context.insert(tag)
        context.update(note)
        #expect(try context.save()?.revision == 4)
        #expect(try context.model(NotesV2.Note.self, id: note.id)?.tagID == tag.id)
        #expect(try container.pool.read { try $0.rows("PRAGMA integrity_check") }.map { $0["integrity_check"] } == [.text("ok")])
    }

    @Test func stagesRunOnlyForOlderFilesAndOnlyOnce() throws {
        let folder = try TemporaryDirectory()
        let log = StageLog()
        let counting = MigrationStage.custom(to: 2, "count runs", didMigrate: { _ in log.append("ran") })

        let fresh = folder.path("fresh.sqlite")
        _ = try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(fresh, stages: [counting]))
        #expect(log.all.isEmpty, "a new file is created at the current version; no stage runs")

        let old = folder.path("old.sqlite")
        try NotesV1.writeFile(at: old)
        for _ in 0..<3 {
            _ = try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(old, stages: [counting]))
        }
        #expect(log.all == ["ran"])
    }

    @Test func stagesRunInVersionOrderWhateverTheirDeclarationOrder() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        try NotesV1.writeFile(at: path)
        let log = StageLog()
        let stages = [4, 2, 3].map { version in
            MigrationStage.custom(
                to: version, "step \(version)",
                willMigrate: { _ in log.append("will \(version)") },
                didMigrate: { database in
                    // didMigrate sees the inferred columns of the final schema.
                    let columns = try columnNames("notes", database)
                    log.append("did \(version)" + (columns.contains("titleLength") ? "" : " without new columns"))
                })
        }
        let configuration = ModelConfiguration(path: path, schemaVersion: 3, migrations: stages)
        let context = ModelContext(try ModelContainer(for: NotesV2.models, configuration: configuration))
        #expect(log.all == ["will 2", "will 3", "did 2", "did 3"], "stage 4 is beyond this code's version")
        #expect(try context.container.pool.read(schemaVersion) == 3)
        #expect(try context.fetchCount(FetchDescriptor<NotesV2.Note>()) == 3)
    }

    @Test func newerFileIsRefusedByOlderCodeAndNeverModified() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        try NotesV1.writeFile(at: path)
        _ = try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(path))
        // A cleanly closed file: everything in the main file, no sidecar files.
        try inspect(path) { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        try #require(sidecars(of: path) == [])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        for readOnly in [false, true] {
            #expect(throws: StoreError.newerSchema(fileVersion: 2, supportedVersion: 1)) {
                try ModelContainer(for: NotesV1.models, configuration: NotesV1.configuration(path, readOnly: readOnly))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
            #expect(sidecars(of: path) == [], "read-only: \(readOnly)")
        }
        #expect(StoreError.newerSchema(fileVersion: 2, supportedVersion: 1).description.contains("not modified"))

        // The newer code still reads it all.
        let context = ModelContext(try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(path)))
        #expect(try context.fetchCount(FetchDescriptor<NotesV2.Note>()) == 3)
    }

    @Test func newerFileWithAWriteAheadLogIsRefusedWithoutTouchingEitherFile() throws {
        let folder = try TemporaryDirectory()
        let live = folder.path("live.sqlite")
        let path = folder.path("notes.sqlite")
        try NotesV1.writeFile(at: live)
        // The image a newer app leaves when it is killed: recent commits only in the WAL.
        let newer = ModelContext(try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(live)))
        newer.insert(NotesV2.Tag(name: "only in the log"))
        try newer.save()
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: live + suffix, toPath: path + suffix) }
        let mainBytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let logBytes = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        try #require(!logBytes.isEmpty)

        #expect(throws: StoreError.newerSchema(fileVersion: 2, supportedVersion: 1)) {
            try ModelContainer(for: NotesV1.models, configuration: NotesV1.configuration(path))
        }
        let mainAfter = try? Data(contentsOf: URL(fileURLWithPath: path))
        let logAfter = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        #expect(mainAfter == mainBytes)
        #expect(logAfter == logBytes)
        // Whatever the bytes, no commit is lost.
        let context = ModelContext(try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(path)))
        #expect(try context.fetch(FetchDescriptor<NotesV2.Tag>()).map(\.name) == ["only in the log"])
    }

    @Test func failingCustomStageLeavesTheFileAtTheOldVersion() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        try NotesV1.writeFile(at: path)
        let failing = MigrationStage.custom(to: 2, "backfill then fail", didMigrate: { database in
            try database.execute("UPDATE notes SET title = 'half-migrated', titleLength = 99")
            throw DeliberateFailure()
        })

        #expect {
            try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(path, stages: [failing]))
        } throws: { error in
            guard case StoreError.migrationFailed(2, let reason) = error else { return false }
            return reason.contains("backfill then fail") && reason.contains("cannot convert")
                && "\(error)".contains("nothing was changed")
        }

        // Nothing half-done: the version-1 code opens it with every row as it was.
        let context = ModelContext(try ModelContainer(for: NotesV1.models, configuration: NotesV1.configuration(path)))
        let notes = try context.fetch(FetchDescriptor<NotesV1.Note>(sortBy: [SortDescriptor(\.rank)]))
        #expect(notes == NotesV1.sampleNotes)
        let (version, objects, noteColumns) = try context.container.pool.read {
            (try schemaVersion($0), try schemaObjectNames($0), try columnNames("notes", $0))
        }
        #expect(version == 1)
        #expect(objects.isDisjoint(with: ["tags", "notes_by_priority", "tags_by_name"]))
        #expect(noteColumns == ["_pk", "id", "title", "rank", "_rev"])
        var search = FetchDescriptor<NotesV1.Note>()
        search.searchText = "family"
        #expect(try context.fetch(search).map(\.id) == [NotesV1.sampleNotes[2].id])

        // Fixing the stage lets the same file migrate.
        let migrated = ModelContext(try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(path)))
        #expect(try migrated.fetch(FetchDescriptor<NotesV2.Note>()).map(\.titleLength).sorted() == [12, 13, 15])
    }

    @Test func newRequiredColumnWithoutDefaultIsRefusedClearly() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        try NotesV1.writeFile(at: path)

        #expect {
            try ModelContainer(for: [NotesV2Required.Note.self], configuration: ModelConfiguration(path: path, schemaVersion: 2))
        } throws: { error in
            guard case StoreError.migrationFailed(2, let reason) = error else { return false }
            return reason.contains("priority") && reason.contains("default")
        }
        let context = ModelContext(try ModelContainer(for: NotesV1.models, configuration: NotesV1.configuration(path)))
        #expect(try context.fetch(FetchDescriptor<NotesV1.Note>(sortBy: [SortDescriptor(\.rank)])) == NotesV1.sampleNotes)
        #expect(try context.container.pool.read(schemaVersion) == 1)
    }

    @Test func droppingARequiredColumnNeedsACustomStage() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        try NotesV1.writeFile(at: path)
        let models: [any PersistentModel.Type] = [NotesV2WithoutRank.Note.self]

        #expect {
            try ModelContainer(for: models, configuration: ModelConfiguration(path: path, schemaVersion: 2))
        } throws: { error in
            guard case StoreError.migrationFailed(2, let reason) = error else { return false }
            return reason.contains("rank") && reason.contains("custom stage")
        }

        let drop = MigrationStage.custom(to: 2, "drop rank", willMigrate: { database in
            try database.execute("ALTER TABLE notes DROP COLUMN rank")
        })
        let context = ModelContext(
            try ModelContainer(for: models, configuration: ModelConfiguration(path: path, schemaVersion: 2, migrations: [drop])))
        let titles = try context.fetch(FetchDescriptor<NotesV2WithoutRank.Note>()).map(\.title)
        #expect(Set(titles) == Set(NotesV1.sampleNotes.map(\.title)))
        #expect(try context.container.pool.read { try columnNames("notes", $0) } == ["_pk", "id", "title", "_rev"])
    }

    @Test func readOnlyOpenNeverMigrates() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        try NotesV1.writeFile(at: path)

        #expect {
            try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(path, readOnly: true))
        } throws: { error in
            guard case StoreError.migrationFailed(2, let reason) = error else { return false }
            return reason.contains("read-only")
        }
        #expect(try inspect(path, schemaVersion) == 1)
        #expect(try inspect(path) { try columnNames("notes", $0) } == ["_pk", "id", "title", "rank", "_rev"])
    }
}

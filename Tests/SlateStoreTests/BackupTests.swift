import Foundation
@testable import SlateStore
import Synchronization
import Testing

// Online backups while a writer keeps committing, restores, the copy written before a
// migration, and the lock that tells a restore a server is running.

/// Titles the writer thread has seen committed, in order.
private final class Acknowledged: Sendable {
    let titles = Mutex<[String]>([])
    let stop = Atomic<Bool>(false)
    let failure = Mutex<String?>(nil)
}

@Suite struct BackupTests {
    private func titles(in path: String) throws -> Set<String> {
        let context = ModelContext(try ModelContainer(for: allModels, configuration: ModelConfiguration(path: path)))
        return Set(try context.fetch(FetchDescriptor<Item>()).map(\.title))
    }

    @Test func aBackupTakenDuringAStreamOfWritesHoldsEveryAcknowledgedWrite() async throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: folder.path("live.sqlite")))
        let log = Acknowledged()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let context = ModelContext(container)
            var number = 0
            while !log.stop.load(ordering: .relaxed) {
                number += 1
                context.insert(Item(title: "write \(number)", rank: number))
                do { try context.save() } catch {
                    log.failure.withLock { $0 = "\(error)" }
                    break
                }
                log.titles.withLock { $0.append("write \(number)") }
            }
            finished.signal()
        }
        // Wait (bounded) until the writer has committed a few, so the backup races real writes.
        let deadline = Date().addingTimeInterval(60)
        while log.titles.withLock({ $0.count }) < 20, Date() < deadline, log.failure.withLock({ $0 }) == nil {
            try await Task.sleep(for: .milliseconds(1))
        }
        let before = Set(log.titles.withLock { $0 })
        try container.backup(to: folder.path("backup.sqlite"))
        let afterCount = log.titles.withLock { $0.count }
        log.stop.store(true, ordering: .relaxed)
        let stopDeadline = Date().addingTimeInterval(60)
        var writerStopped = false
        while !writerStopped, Date() < stopDeadline {
            writerStopped = finished.wait(timeout: .now()) == .success
            if !writerStopped { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(writerStopped)
        #expect(log.failure.withLock { $0 } == nil)
        #expect(before.count >= 20)

        let backup = try SQLiteDatabase(path: folder.path("backup.sqlite"), mode: .readOnly, busyTimeout: 5)
        #expect(try backup.rows("PRAGMA integrity_check").map { String.fromDatabaseValue($0["integrity_check"]) } == ["ok"])
        #expect(!FileManager.default.fileExists(atPath: folder.path("backup.sqlite-wal")), "a self-contained file")
        let saved = try titles(in: folder.path("backup.sqlite"))
        #expect(before.isSubset(of: saved), "missing: \(before.subtracting(saved).sorted().prefix(5))")
        #expect(saved.count <= afterCount, "nothing that was not written")
    }

    @Test func aRestoreBringsBackWhatWasBackedUp() throws {
        let folder = try TemporaryDirectory()
        let live = folder.path("live.sqlite")
        do {
            let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: live))
            let context = ModelContext(container)
            for number in 1...5 { context.insert(Item(title: "kept \(number)", rank: number)) }
            try context.save()
            try container.backup(to: folder.path("backup.sqlite"))
            try context.delete(model: Item.self)
            context.insert(Item(title: "after the backup"))
            try context.save()
        }
        try ModelContainer.restore(from: folder.path("backup.sqlite"), to: live, schemaVersion: 1)
        #expect(try titles(in: live) == Set((1...5).map { "kept \($0)" }))
    }

    @Test func aRestoreWhileAnotherConnectionIsOpenIsSeenThroughIt() throws {
        let folder = try TemporaryDirectory()
        let live = folder.path("live.sqlite")
        let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: live))
        let context = ModelContext(container)
        context.insert(Item(title: "in the backup"))
        try context.save()
        try container.backup(to: folder.path("backup.sqlite"))
        context.insert(Item(title: "not in the backup"))
        try context.save()
        try ModelContainer.restore(from: folder.path("backup.sqlite"), to: live, schemaVersion: 1)
        #expect(Set(try ModelContext(container).fetch(FetchDescriptor<Item>()).map(\.title)) == ["in the backup"])
    }

    @Test func aRestoreRefusesWhatIsNotAUsableBackup() throws {
        let folder = try TemporaryDirectory()
        let live = folder.path("live.sqlite")
        #expect(throws: StoreError.self) { try ModelContainer.restore(from: folder.path("missing"), to: live, schemaVersion: 1) }
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: folder.path("text")))
        #expect(throws: StoreError.self) { try ModelContainer.restore(from: folder.path("text"), to: live, schemaVersion: 1) }
        try NotesV1.writeFile(at: folder.path("v1.sqlite"))
        try NotesV1.writeFile(at: folder.path("v1-again.sqlite"))
        _ = try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(folder.path("v1-again.sqlite")))
        #expect(throws: StoreError.newerSchema(fileVersion: 2, supportedVersion: 1)) {
            try ModelContainer.restore(from: folder.path("v1-again.sqlite"), to: live, schemaVersion: 1)
        }
        #expect(!FileManager.default.fileExists(atPath: live), "nothing written for a refused restore")
    }

    @Test func aMigrationWritesABackupBesideTheFileFirst() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("notes.sqlite")
        try NotesV1.writeFile(at: path)
        let upgraded = try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(path))
        let backup = try #require(upgraded.migrationBackup)
        #expect(backup.hasPrefix(path + ".before-schema-1-"))
        let copy = try SQLiteDatabase(path: backup, mode: .readOnly, busyTimeout: 5)
        #expect(Int.fromDatabaseValue(try copy.scalar("SELECT value FROM _slate_meta WHERE key = 'schema_version'") ?? .null) == 1)
        #expect(Int.fromDatabaseValue(try copy.scalar("SELECT count(*) FROM notes") ?? .null) == NotesV1.sampleNotes.count)
        #expect(try upgraded.storedSchemaVersion() == 2)
        // Already current, or new: nothing to copy.
        #expect(try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(path)).migrationBackup == nil)
        #expect(try ModelContainer(for: NotesV2.models, configuration: NotesV2.configuration(folder.path("new.sqlite"))).migrationBackup == nil)
    }

    @Test func theProcessLockIsHeldUntilReleased() throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("live.sqlite")
        #expect(try ProcessLock.isHeld(forStore: store) == false)
        var lock = try ProcessLock.acquire(forStore: store)
        #expect(lock != nil)
        #expect(try ProcessLock.isHeld(forStore: store))
        #expect(try ProcessLock.acquire(forStore: store) == nil)
        lock = nil
        #expect(try ProcessLock.isHeld(forStore: store) == false)
    }

    @Test func aBackupOrRestoreOntoTheDatabaseItselfIsRefused() throws {
        let folder = try TemporaryDirectory()
        let live = folder.path("live.sqlite")
        let container = try ModelContainer(for: allModels, configuration: ModelConfiguration(path: live))
        let context = ModelContext(container)
        context.insert(Item(title: "kept"))
        try context.save()
        for target in [live, folder.path("./live.sqlite"), live + "-wal"] {
            #expect(throws: StoreError.self) { try container.backup(to: target) }
        }
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.sqlite"), withDestinationPath: live)
        #expect(throws: StoreError.self) { try container.backup(to: folder.path("link.sqlite")) }
        #expect(throws: StoreError.self) { try ModelContainer.restore(from: live, to: live, schemaVersion: 1) }
        #expect(try ModelContext(container).fetch(FetchDescriptor<Item>()).map(\.title) == ["kept"])
    }

    @Test func anInMemoryStoreHasNoFileToBackUp() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: StoreError.self) { try makeContainer().backup(to: folder.path("copy.sqlite")) }
    }
}

import Foundation
@testable import SlateStore
import TestDatabases
import Testing

// A store opened with no reader connections (`maximumReaders: 0`, as a `slate` command
// opens it) reads on its writer connection: it still sees what another process commits,
// and a snapshot still sees one state while another process writes. On SQLite (a file)
// and on PostgreSQL (a schema of the test server).

@Suite struct ReaderlessPoolTests {
    func open(_ path: String, readers: Int) throws -> ModelContainer {
        var configuration = TestDatabase.shared(path: path)
        configuration.maximumReaders = readers
        return try ModelContainer(for: allModels, configuration: configuration)
    }

    /// A command's store (no readers) and a server's (four) on one database in `folder`,
    /// after the command saved an item titled `title`.
    func twoProcesses(in folder: borrowing TemporaryDirectory, saving title: String) throws
        -> (command: ModelContainer, server: ModelContainer) {
        let command = try open(folder.path("board.sqlite"), readers: 0)
        let server = try open(folder.path("board.sqlite"), readers: 4)
        let context = ModelContext(command)
        context.insert(Item(title: title))
        try context.save()
        return (command, server)
    }

    func titles(_ container: ModelContainer) throws -> Set<String> {
        Set(try ModelContext(container).fetch(FetchDescriptor<Item>()).map(\.title))
    }

    @Test func readsUseTheWriterAndSeeAnotherProcesssCommits() throws {
        let folder = try TemporaryDirectory()
        let (command, server) = try twoProcesses(in: folder, saving: "mine")
        #expect(try titles(command) == ["mine"])

        let other = ModelContext(server)
        other.insert(Item(title: "theirs"))
        try other.save()
        #expect(try titles(command) == ["mine", "theirs"])
        #expect(try command.currentRevision() == 2)
        #expect(command.pool.readersOpened == 0, "every read used the writer connection")
        #expect(try titles(server) == ["mine", "theirs"])
        #expect(server.pool.readersOpened == 1, "a pool with readers reads on one, kept for the next read")
    }

    @Test func aSnapshotStillSeesOneStateWhileAnotherProcessWrites() throws {
        let folder = try TemporaryDirectory()
        let (command, server) = try twoProcesses(in: folder, saving: "first")

        let (before, after) = try command.snapshot {
            let before = try titles(command)
            let other = ModelContext(server)
            other.insert(Item(title: "during"))
            try other.save()
            return (before, try titles(command))
        }
        #expect(before == ["first"])
        #expect(after == ["first"], "the snapshot's reads saw one state")
        #expect(try titles(command) == ["first", "during"])
        #expect(command.pool.readersOpened == 1, "the snapshot, and only it, had a connection of its own")
    }

    @Test func aWriteAfterReadsOnTheWriterCommitsAndIsDurable() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("board.sqlite")
        do {
            let command = try open(path, readers: 0)
            let context = ModelContext(command)
            #expect(try context.fetchCount(FetchDescriptor<Item>()) == 0)
            context.insert(Item(title: "kept"))
            try context.save()
            #expect(try context.fetchCount(FetchDescriptor<Item>()) == 1)
        }
        #expect(try titles(try open(path, readers: 4)) == ["kept"])
    }
}

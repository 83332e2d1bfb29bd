import Foundation
import Testing
@testable import SlateStore

/// What opening a database says when the file or the disk is not what it should be.
@Suite struct OpeningErrorTests {
    struct Row: PersistentModel, Codable, Sendable, Identifiable, Hashable {
        var id = UUID()
        var name = ""
        static let schema = ModelSchema<Row>(table: "rows", columns: [.column(\.name, "name")])
    }

    @Test func anEmptyExistingFileIsRefusedNotTurnedIntoANewBoard() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("board.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = #expect(throws: StoreError.self) {
            _ = try ModelContainer(for: [Row.self], configuration: ModelConfiguration(path: path))
        }
        #expect(error.map { "\($0)" }?.contains("empty (0 bytes)") == true, "\(String(describing: error))")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue == 0, "nothing was written")

        try FileManager.default.removeItem(atPath: path)
        _ = try ModelContainer(for: [Row.self], configuration: ModelConfiguration(path: path))  // no file: a new one
    }

    @Test func diskErrorsWhileOpeningAreSaidInWords() {
        let path = "/var/lib/slate/slate.sqlite"
        let shared = StoreError.whileOpening(StoreError.sqlite(SQLiteError(code: 4874, message: "disk I/O error", sql: nil, arguments: [])), path: path)
        #expect("\(shared)".contains("slate.sqlite-shm") && "\(shared)".contains("full or failing"))
        #expect(!"\(shared)".contains("SQLite error") && !"\(shared)".contains("4874"))
        let full = StoreError.whileOpening(StoreError.sqlite(SQLiteError(code: 13, message: "database or disk is full", sql: "PRAGMA x", arguments: [])), path: path)
        #expect("\(full)".contains("the disk is full") && !"\(full)".contains("PRAGMA"))
        let other = StoreError.newerSchema(fileVersion: 9, supportedVersion: 1)
        #expect(StoreError.whileOpening(other, path: path) as? StoreError == other, "other errors pass through")
    }
}

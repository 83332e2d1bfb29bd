import Foundation
import SlateStore
import Testing

@testable import SlateCore

/// The declared schema fingerprint (`SlateSchema.fingerprint`) that lets a command open a
/// current file without building every model's table.
@Suite struct SchemaFingerprintTests {
    @Test func theDeclaredFingerprintIsTheOneTheModelsGive() throws {
        let computed = try ModelContainer.schemaFingerprint(of: SlateSchema.models, schemaVersion: SlateSchema.version)
        #expect(SlateSchema.fingerprint == computed, "the models changed: declare SlateSchema.fingerprint = \(computed)")
    }

    @Test func aFileMadeAndReopenedThroughTheDeclarationHoldsTheBoard() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fingerprint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("board.sqlite").path
        do {
            let slate = try Slate.open(path: path)
            _ = try slate.addTask(TaskDraft(title: "Written before reopening"))
        }
        // Reopened: current by the declaration, so no table is built until a write needs it.
        let slate = try Slate.open(path: path)
        _ = try slate.addTask(TaskDraft(title: "Written after reopening"))
        #expect(try slate.tasks().map(\.title).sorted() == ["Written after reopening", "Written before reopening"])
    }

    @Test func aDeclarationTheModelsDoNotGiveIsRefusedWhenAStoreIsMade() throws {
        var configuration = ModelConfiguration()
        configuration.schemaVersion = SlateSchema.version
        configuration.schemaFingerprint = SlateSchema.fingerprint &+ 1
        #expect {
            _ = try ModelContainer(for: SlateSchema.models, configuration: configuration)
        } throws: { error in
            "\(error)".contains("declares the schema fingerprint")
        }
    }
}

import Foundation
import Testing

/// SlateCore is the one door to the data: no surface module imports SlateStore.
@Suite struct BoundaryTests {
    static let surfaces = ["SlateServer", "SlateDAV", "SlateCLI", "slate"]

    @Test(arguments: surfaces)
    func surfaceDoesNotImportTheStore(_ module: String) throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources").appendingPathComponent(module)
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(!files.isEmpty, "no Swift files found under \(sources.path)")
        let offenders = try files.filter { file in
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("import SlateStore") }
        }
        #expect(offenders.isEmpty, "import SlateStore in \(offenders.map(\.lastPathComponent))")
    }
}

import Foundation
import SlateCore
import Testing

/// The import formats' fuzz corpora (fuzz/corpus/<target>/) replayed through the public
/// import without the sanitizer: every file, seed or crash found by `scripts/fuzz`, either
/// imports or is refused with an `ImportError` that changes nothing; the exported sample
/// board imports whole.
@Suite struct FuzzCorpusTests {
    struct CorpusFile: Sendable, CustomStringConvertible {
        let url: URL
        let format: TransferFormat
        var description: String { url.pathComponents.suffix(2).joined(separator: "/") }
    }

    static let corpus = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../fuzz/corpus").standardized

    static let files: [CorpusFile] = [("ical", TransferFormat.ics), ("todotxt", .todotxt), ("taskwarrior", .taskwarrior), ("slate-json", .json)]
        .flatMap { folder, format in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.appending(path: folder).path)) ?? []
            return names.sorted().map { CorpusFile(url: corpus.appending(path: folder).appending(path: $0), format: format) }
        }

    @Test func everyImportFormatHasASeedCorpus() {
        #expect(Set(Self.files.map(\.format)) == Set(TransferFormat.allCases), "fuzz/corpus at \(Self.corpus.path)")
    }

    @Test(arguments: files)
    func aCorpusFileImportsOrIsRefusedWithoutAChange(file: CorpusFile) throws {
        let (slate, _) = try makeSlate()
        let data = try Data(contentsOf: file.url)
        let before = try slate.export(.json)
        do {
            let summary = try slate.importData(data, format: file.format)
            if file.url.lastPathComponent.hasPrefix("sample-board") {
                #expect(summary.tasksCreated > 0 && summary.listsCreated > 0, "\(summary)")
            }
        } catch let error as ImportError {
            #expect(!file.url.lastPathComponent.hasPrefix("sample-board"), "\(error)")
            #expect(try slate.export(.json) == before, "a refused import changed the board")
        }
    }
}

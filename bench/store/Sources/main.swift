import Foundation
import CSQLite

// `store-bench`: SlateStore against a hand-written loop on the raw sqlite3 C API, in
// the same run, on the same schema and data. Run it with `bench/store/run`.

func main() -> Int32 {
    let options: Options
    do {
        options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("\((error as? OptionsError)?.message ?? "\(error)")\n".utf8))
        return 2
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-store-bench-\(UUID().uuidString)")
    defer {
        if options.keepFiles {
            print("kept the database files in \(folder.path)")
        } else {
            try? FileManager.default.removeItem(at: folder)
        }
    }
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let dataset = Dataset(taskCount: options.taskCount, listCount: options.listCount)
        print("""
            SlateStore vs raw sqlite3: \(grouped(options.taskCount)) tasks in \(options.listCount) lists
            \(ProcessInfo.processInfo.activeProcessorCount) cores, SQLite \(String(cString: sqlite3_libversion())), WAL + synchronous=FULL, files in \(folder.deletingLastPathComponent().path)
            SlateStore inserts through ModelContext(container, undo: false) (SwiftData's default: no undo manager).
            Times are medians of wall-clock time; ratio = SlateStore ÷ raw (target ≤ 1.5x).
            cpu ratio: the same for the measuring thread's CPU time (work done, without waiting).

            """)
        let lines = try Runner(options: options, dataset: dataset, folder: folder).run()
        let report = Report(options: options, lines: lines)
        print("\n" + report.table)
        if let path = options.jsonPath {
            try report.write(to: path)
            print("\nwrote \(path)")
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("store-bench failed: \(error)\n".utf8))
        return 1
    }
}

exit(main())

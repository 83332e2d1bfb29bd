import CSQLite
import Foundation

/// Everything one run measured, as written to `bench/store/results/latest.json`.
struct Report: Codable {
    struct Machine: Codable {
        let processors: Int
        let operatingSystem: String
        let sqliteVersion: String
    }

    struct Setup: Codable {
        let tasks: Int
        let lists: Int
        let insertRepetitions: Int
        let queryRepetitions: Int
        let countRepetitions: Int
        let storage: String
        let slateStoreInsertContext: String
    }

    let benchmark: String
    let command: String
    let date: String
    let machine: Machine
    let setup: Setup
    let lines: [LineResult]
    let allLinesMeetTarget: Bool

    init(options: Options, lines: [LineResult]) {
        benchmark = "store"
        command = (["bench/store/run"] + Self.userArguments()).joined(separator: " ")
        date = ISO8601DateFormatter().string(from: Date())
        machine = Machine(
            processors: ProcessInfo.processInfo.activeProcessorCount,
            operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString,
            sqliteVersion: String(cString: sqlite3_libversion()))
        setup = Setup(
            tasks: options.taskCount, lists: options.listCount, insertRepetitions: options.insertRepetitions,
            queryRepetitions: options.queryRepetitions, countRepetitions: options.countRepetitions,
            storage: "a new pair of WAL files (synchronous = FULL, foreign keys on) in \(NSTemporaryDirectory()) per insert repetition",
            slateStoreInsertContext: "ModelContext(container, undo: false)")
        self.lines = lines
        allLinesMeetTarget = lines.allSatisfy(\.meetsTarget)
    }

    /// The arguments given to `bench/store/run`: all but the `--json` it adds itself.
    private static func userArguments() -> [String] {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if let json = arguments.firstIndex(of: "--json"), json + 1 < arguments.count {
            arguments.removeSubrange(json...(json + 1))
        }
        return arguments
    }

    /// Writes the report as pretty, key-sorted JSON, replacing the file atomically.
    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (encoder.encode(self) + Data("\n".utf8)).write(to: url, options: .atomic)
    }

    /// The table printed at the end of a run.
    var table: String {
        let header = [
            "line", "rows", "reps", "SlateStore", "raw sqlite3", "SlateStore rows/s", "raw rows/s", "ratio", "≤1.5x",
            "cpu ratio",
        ]
        let rows = lines.map { line in
            [
                line.name, grouped(line.rows), String(line.repetitions),
                duration(line.slateStore.medianSeconds), duration(line.raw.medianSeconds),
                grouped(Int(line.slateStore.rowsPerSecond.rounded())), grouped(Int(line.raw.rowsPerSecond.rounded())),
                String(format: "%.2fx", line.ratio), line.meetsTarget ? "yes" : "MISS",
                String(format: "%.2fx", line.cpuRatio),
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        let rule = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
        var text = [render(header), rule] + rows.map(render)
        text.append(rule)
        text += lines.map { "\($0.name): \($0.detail)" }
        return text.joined(separator: "\n")
    }
}

/// A duration for people: seconds, milliseconds or microseconds.
func duration(_ seconds: Double) -> String {
    if seconds >= 1 { return String(format: "%.3f s", seconds) }
    if seconds >= 1e-3 { return String(format: "%.2f ms", seconds * 1e3) }
    return String(format: "%.1f µs", seconds * 1e6)
}

/// An integer with thousands separators: 100,050.
func grouped(_ value: Int) -> String {
    let digits = Array(String(value.magnitude))
    var text = ""
    for (offset, digit) in digits.enumerated() {
        if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
        text.append(digit)
    }
    return value < 0 ? "-" + text : text
}

import Foundation

/// Command-line options of `store-bench`; the defaults are the figures.
struct Options {
    var taskCount = 100_000
    var listCount = 50
    /// Each repetition inserts 100,000 rows on each side, 12–15 s a side on a quiet
    /// 2-core machine (the FTS5 triggers dominate): 5 keep the whole run near 2.5 minutes.
    var insertRepetitions = 5
    var queryRepetitions = 30
    /// Counting is quick, so it gets more repetitions for a stable median.
    var countRepetitions = 300
    /// Where to write the JSON report; nil to skip it.
    var jsonPath: String?
    /// Keep the database files of the last insert repetition, for inspection or profiling.
    var keepFiles = false

    static let usage = """
        usage: store-bench [--tasks N] [--lists N] [--insert-reps N] [--query-reps N] [--count-reps N] [--json PATH] [--keep]
          Measures the same work through SlateStore and through a hand-written sqlite3 loop.
          Defaults: 100000 tasks in 50 lists, 5 insert, 30 query and 300 count repetitions.
          --keep leaves the last pair of database files in place and prints where.
        """

    /// Parses `arguments` (without the program name); throws the usage on a mistake.
    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            if flag == "--help" || flag == "-h" { throw OptionsError(message: Self.usage) }
            if flag == "--keep" {
                keepFiles = true
                continue
            }
            guard let value = remaining.popFirst() else { throw OptionsError(message: "\(flag) needs a value\n\(Self.usage)") }
            if flag == "--json" {
                jsonPath = value
                continue
            }
            guard let number = Int(value), number > 0 else {
                throw OptionsError(message: "\(flag) needs a positive whole number, not '\(value)'\n\(Self.usage)")
            }
            switch flag {
            case "--tasks": taskCount = number
            case "--lists": listCount = number
            case "--insert-reps": insertRepetitions = number
            case "--query-reps": queryRepetitions = number
            case "--count-reps": countRepetitions = number
            default: throw OptionsError(message: "unknown option \(flag)\n\(Self.usage)")
            }
        }
        guard taskCount % (2 * listCount) == 0 else {
            throw OptionsError(message: "--tasks must be a multiple of twice --lists, so every list has the same open tasks")
        }
        guard taskCount >= 100 else { throw OptionsError(message: "--tasks must be at least 100 for the search line") }
    }
}

struct OptionsError: Error {
    let message: String
}

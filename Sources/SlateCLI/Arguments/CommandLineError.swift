import Foundation

/// Exit codes, documented in `slate --help`.
enum ExitCode {
    static let success: Int32 = 0
    /// Not found, or a rule refused the change.
    static let failure: Int32 = 1
    /// The command line itself is wrong.
    static let usage: Int32 = 2
}

/// A mistake in the command line: printed with the usage line, exit code 2.
struct UsageError: Error, Equatable {
    var message: String
    /// The command the mistake is in, for "Usage:" and "See 'slate … --help'".
    var command: [String]
}

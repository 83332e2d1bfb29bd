#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Facts about the terminal standard output goes to.
enum Terminal {
    /// The width in columns when standard output is a terminal, else nil (piped output
    /// is never truncated or coloured).
    static func width() -> Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

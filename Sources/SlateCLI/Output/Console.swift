import Foundation

/// Where a command writes: collected, then flushed to standard output and standard
/// error in one write each (or kept, in tests).
final class Console {
    private(set) var standardOutput = ""
    private(set) var standardError = ""

    func out(_ text: String) { standardOutput += text }
    func err(_ text: String) { standardError += text }

    /// Prints a line to standard output.
    func line(_ text: String = "") { out(text + "\n") }

    /// Writes what was collected to the process's streams.
    func flush() {
        if !standardOutput.isEmpty { FileHandle.standardOutput.write(Data(standardOutput.utf8)) }
        if !standardError.isEmpty { FileHandle.standardError.write(Data(standardError.utf8)) }
        standardOutput = ""
        standardError = ""
    }
}

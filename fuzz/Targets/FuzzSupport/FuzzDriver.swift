import CLibFuzzer
import Foundation

/// Starts libFuzzer with the process's arguments (`-runs=N`, `-max_total_time=S`, corpus
/// folders: see scripts/fuzz) and `target` as the function under test.
///
/// SwiftPM links every executable with its own `main` (the target's top-level code), which
/// replaces libFuzzer's; so each target's `main.swift` calls this instead.
public enum FuzzDriver {
    /// A function under test: the input's bytes and their count; returns 0.
    public typealias Target = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs the fuzzer until it stops (runs or time used up, or a crash) and exits with its status.
    public static func run(_ target: Target) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, target))
    }
}

/// libFuzzer's own `main` (which SwiftPM's `main` replaces, see `FuzzDriver`) still names this
/// symbol, and a debug build keeps that `main`, so it must exist; it is never called.
@_cdecl("LLVMFuzzerTestOneInput")
public func unusedFuzzerEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fatalError("libFuzzer's main is not used: each fuzz target starts the driver through FuzzDriver.run")
}

import Foundation

/// What every fuzz target reads its input through: libFuzzer hands over raw bytes.
///
/// The targets are plain functions exported as `LLVMFuzzerTestOneInput`; a target returns 0
/// for every input (a thrown error is a refusal, which is fine), and a crash is the finding.
public enum FuzzInput {
    /// Copies libFuzzer's buffer (which it reuses after the call) into `Data`.
    public static func data(_ start: UnsafeRawPointer?, _ count: Int) -> Data {
        guard let start, count > 0 else { return Data() }
        return Data(bytes: start, count: count)
    }

    /// The buffer as text; invalid UTF-8 becomes U+FFFD, as it does where Slate reads text.
    public static func text(_ start: UnsafeRawPointer?, _ count: Int) -> String {
        String(decoding: data(start, count), as: UTF8.self)
    }

    /// Inputs longer than this are skipped. The parsers are linear, so a longer input finds
    /// nothing a shorter one would not, and only slows the run down (libFuzzer's own
    /// `-max_len` is set by scripts/fuzz; this guards a corpus file added by hand).
    public static let maximumLength = 64 * 1024
}

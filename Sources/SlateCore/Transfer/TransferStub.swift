import Foundation

// STUB so that `slate` compiles on the helper-clibench branch, where import/export are
// not written yet. Delete this file when merging the real import/export (helper-transfer);
// nothing in the CLI benchmark uses it.

/// The file formats of `slate export` and `slate import`.
public enum TransferFormat: String, Sendable, CaseIterable {
    case json, ics, todotxt, taskwarrior
}

/// What an import did.
public struct ImportSummary: Sendable, Hashable {
    public var listsCreated = 0
    public var tasksCreated = 0
    public var tasksUpdated = 0
}

extension Slate {
    /// Not implemented on this branch.
    public func export(_ format: TransferFormat) throws -> Data {
        throw SlateError.invalid(field: "format", message: "Export is not available in this build.")
    }

    /// Not implemented on this branch.
    public func importData(_ data: Data, format: TransferFormat?) throws -> ImportSummary {
        throw SlateError.invalid(field: "format", message: "Import is not available in this build.")
    }
}

import Foundation
import SlateStore

/// Which earlier revisions of a task had the fields it has now.
///
/// A task takes a new revision when only its subtasks changed (`Slate.touchParents`): its
/// `subtaskCount` moved, so its ETag must too. A client that edits it with the ETag it read
/// before that is not in conflict with anyone: nothing it saw has changed. So each touch
/// records the revision it replaced, with a digest of the task's own fields, and an
/// `If-Match` naming a recorded revision is accepted while the fields still have that
/// digest (`Revisioned<TaskItem>.accepts(_:)`).
///
/// Whatever copies this record along with a task (an edit that starts from what it read, an
/// undo that restores an old image), the check stays sound: a revision is only ever stored
/// with the digest of the fields it had, and it is accepted only while the fields have that
/// digest again.
struct SameFields: Hashable, Sendable, DatabaseValueConvertible {
    /// A digest of the task's fields (everything but this record), hex; empty for none.
    var digest: String
    /// Revisions, oldest first, at which the task had the fields `digest` stands for.
    var revisions: [Int]

    /// No earlier revision is known to have the current fields.
    static let none = SameFields(digest: "", revisions: [])

    /// How many revisions are kept: a client older than that many touches reads again.
    static let limit = 16

    /// The stored form: the digest, then the revisions, separated by spaces ("" for none).
    var storageValue: String {
        revisions.isEmpty ? "" : ([digest] + revisions.map(String.init)).joined(separator: " ")
    }

    /// Reads `storageValue`; anything else is none (which only ever refuses an `If-Match`
    /// that a touch would have let through).
    init(storageValue: String) {
        let parts = storageValue.split(separator: " ")
        let revisions = parts.dropFirst().compactMap { Int($0) }
        guard let first = parts.first, !revisions.isEmpty, revisions.count == parts.count - 1 else {
            self = .none
            return
        }
        self.init(digest: String(first), revisions: revisions)
    }

    init(digest: String, revisions: [Int]) {
        self.digest = digest
        self.revisions = revisions
    }

    /// Always equal: the record is bookkeeping, not part of a task's value. Two tasks with
    /// the same fields are equal whatever touches brought them there (an export read back,
    /// a copy on another database), so `TaskItem`'s `==` stays a comparison of fields.
    static func == (_: SameFields, _: SameFields) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    // Stored as `storageValue`.

    var databaseValue: DatabaseValue { .text(storageValue) }
    static func fromDatabaseValue(_ value: DatabaseValue) -> SameFields? {
        SameFields(storageValue: String.fromDatabaseValue(value) ?? "")
    }
    static var columnType: ColumnType { .text }
}

extension TaskItem {
    /// A digest of every stored field but `sameFields` (which is not encoded): equal
    /// digests, equal tasks.
    var fieldsDigest: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding plain fields cannot fail; were it to, the empty digest is never recorded
        // (`recordingTouch`), so it matches nothing.
        guard let data = try? encoder.encode(self) else { return "" }
        return sha256(Array(data)).prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// This task as a touch writes it: the same fields, with `revision` (the one the touch
    /// replaces) recorded as having them.
    func recordingTouch(of revision: Int) -> TaskItem {
        var touched = self
        let digest = fieldsDigest
        guard !digest.isEmpty else { return touched }
        var kept = sameFields.digest == digest ? sameFields.revisions : []
        kept.append(revision)
        touched.sameFields = SameFields(digest: digest, revisions: Array(kept.suffix(SameFields.limit)))
        return touched
    }
}

extension TaskItem {
    /// Whether a write that names `expected` (`If-Match`) is in no conflict with this task,
    /// stored at `revision`: it is at that revision, or it had, at that revision, the
    /// fields it has now.
    func accepts(_ expected: Int, at revision: Int) -> Bool {
        guard expected != revision else { return true }
        guard sameFields.revisions.contains(expected) else { return false }
        return sameFields.digest == fieldsDigest
    }
}

extension Revisioned where Model == TaskItem {
    /// `TaskItem.accepts(_:at:)` at this revision.
    func accepts(_ expected: Int) -> Bool { model.accepts(expected, at: revision) }

    /// The revision to stage a write against when the caller named `expected`: this one
    /// when it `accepts(expected)` (or no revision was named), else `expected`, which makes
    /// the save fail with a conflict.
    func guarding(_ expected: Int?) -> Int {
        guard let expected, !accepts(expected) else { return revision }
        return expected
    }
}

import CSQLite
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoreError {
    /// What an error met while opening `path` means, in words: a full disk or an I/O error
    /// names the file it happened on instead of SQLite's code ("SQLite error 4874").
    /// Other errors are returned as they are.
    static func whileOpening(_ error: Error, path: String) -> Error {
        guard case .sqlite(let details)? = error as? StoreError else { return error }
        let name = URL(fileURLWithPath: path).lastPathComponent
        switch details.primaryCode {
        case SQLITE_FULL:
            return StoreError.cannotOpen(path: path, reason: "the disk is full; free some space and try again (nothing was changed)")
        case SQLITE_IOERR:
            let file: String
            switch details.code {
            // SQLITE_IOERR_SHMOPEN, _SHMSIZE, _SHMLOCK, _SHMMAP (macros of casts, not imported).
            case 4618, 4874, 5130, 5386:
                file = "its shared-memory file \(name)-shm"
            // SQLITE_IOERR_WRITE, _FSYNC, _TRUNCATE.
            case 778, 1034, 1546:
                file = "\(name) or its log \(name)-wal"
            default:
                file = name
            }
            return StoreError.cannotOpen(
                path: path, reason: "the disk could not read or write \(file): it is full or failing; free some space or check the disk, then try again")
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY:
            return StoreError.cannotOpen(path: path, reason: "the file or its folder cannot be opened for writing (permissions, or a full disk)")
        default:
            return error
        }
    }

    /// Refuses an existing database file that is empty: a careful user expects a board, and
    /// an empty file is one that was truncated (a full disk, a failed copy), not a new one.
    /// A new database is made only where no file exists.
    static func checkNotEmpty(_ path: String) throws {
        // lstat(2), which looks at a link itself as `FileManager.attributesOfItem` did: that
        // call built a dictionary of every attribute, owner and group names included (a
        // lookup that tried the name service's sockets), 0.47M instructions on every open.
        var status = stat()
        guard path != ":memory:", !path.hasPrefix("file:"), lstat(path, &status) == 0, status.st_size == 0,
              access(path + "-wal", F_OK) != 0, access(path + "-journal", F_OK) != 0
        else { return }
        throw StoreError.cannotOpen(
            path: path,
            reason: "the file is empty (0 bytes), so it holds no board; it may have been cut short by a full disk or a failed copy. Restore it from a backup, or delete it to start a new, empty board")
    }
}

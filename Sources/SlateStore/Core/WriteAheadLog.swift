import CSQLite
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the store keeps its write-ahead log so that a write costs one fsync: the commit's.
///
/// Every `slate` command is a process of its own. Left to SQLite's defaults, each one that
/// writes made five: the WAL's header when the log was created, the folder that holds it,
/// the commit, and the checkpoint when the last connection closed (log, then file), which
/// also deleted the log for the next process to create again.
///
/// - The log outlives the connection (`Database.leaveWriteAheadLogOnClose`).
/// - An existing log is opened without asking to create it (the `slate` VFS below): SQLite
///   fsyncs the folder of every log opened with the create flag, whether or not it created
///   it. A log this process does create has its folder synced at once, so a log found later
///   always has a durable name.
/// - The log is folded back into the file and emptied (`PRAGMA wal_checkpoint(TRUNCATE)`)
///   after the commit that makes it longer than `checkpointFrames` (or the configuration's
///   `writeAheadLogPages`). SQLite's automatic
///   checkpoint is off: a new process cannot know what an earlier one already copied (the
///   WAL index is rebuilt from the log when the first connection opens), so it copied the
///   whole log again on every commit and never emptied it. Every process also reads the
///   whole log when it opens the store (about 5,000 instructions a page), which the bound
///   keeps small. A server's log (`ModelConfiguration.keepsWriteAheadLogFile`) is folded
///   back without emptying its file (`RESTART`): the next commits write over it from the
///   start, which costs the kernel less than growing the file again; it is emptied when
///   the server stops.
enum WriteAheadLog {
    /// The frames (pages) the log may hold before a commit folds it back into the file,
    /// unless the configuration says otherwise (`ModelConfiguration.writeAheadLogPages`).
    static let checkpointFrames: Int32 = 400

    /// The name of the VFS that opens existing logs without the create flag; registered once.
    static let vfsName: String = {
        let name = "slate"
        guard let base = sqlite3_vfs_find(nil) else { return name }
        var vfs = base.pointee
        vfs.pNext = nil
        vfs.zName = UnsafePointer(strdup(name))
        vfs.xOpen = { _, path, file, flags, outFlags in
            // `unix` itself, found again rather than kept: the closure can capture nothing.
            guard let base = sqlite3_vfs_find(nil), let baseOpen = base.pointee.xOpen else { return SQLITE_ERROR }
            guard flags & SQLITE_OPEN_WAL != 0, let path else { return baseOpen(base, path, file, flags, outFlags) }
            if access(path, F_OK) == 0 {
                let code = baseOpen(base, path, file, flags & ~SQLITE_OPEN_CREATE, outFlags)
                // Removed in between (by another program): create it after all.
                if code != SQLITE_CANTOPEN { return code }
            }
            let code = baseOpen(base, path, file, flags, outFlags)
            if code == SQLITE_OK { syncFolder(of: path) }
            return code
        }
        let pointer = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        pointer.initialize(to: vfs)
        sqlite3_vfs_register(pointer, 0)
        return name
    }()

    /// Makes the name of a file just created in a folder durable (fsync of the folder).
    private static func syncFolder(of path: UnsafePointer<CChar>) {
        let folder = (String(cString: path) as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says about a path, reduced to what serving a file needs.
struct FileStatus: Equatable {
    enum Kind { case file, directory, other }

    let kind: Kind
    let size: Int
    /// Modification time in nanoseconds since 1970.
    let modified: Int64

    /// The status of `path` after following symlinks, or nil if it does not exist.
    static func of(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let kind: Kind = switch info.st_mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .directory
        default: .other
        }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return FileStatus(kind: kind, size: Int(info.st_size),
                          modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// A strong validator: size and modification time identify a version of the file.
    var etag: String { "\"\(String(size, radix: 16))-\(String(modified, radix: 16))\"" }

    /// The absolute path with every symlink resolved, or nil.
    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

import CZlib
import Foundation
import Synchronization

/// Whole-buffer gzip through zlib (Foundation on Linux has no compression API).
enum Gzip {
    /// The gzip encoding of `data`, or nil if zlib fails.
    static func compress(_ data: Data, level: Int32 = 6) -> Data? {
        let capacity = slate_gzip_bound(data.count)
        var output = Data(count: capacity)
        let written = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                slate_gzip(input.baseAddress, input.count, out.baseAddress, capacity, level)
            }
        }
        guard written > 0 else { return nil }
        output.count = written
        return output
    }

    /// The bytes inside gzip `data`, if they are at most `limit` long.
    static func decompress(_ data: Data, limit: Int = 64 << 20) -> Data? {
        var output = Data(count: limit)
        let written = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                slate_gunzip(input.baseAddress, input.count, out.baseAddress, limit)
            }
        }
        guard written >= 0 else { return nil }
        output.count = written
        return output
    }
}

/// Compressed files, kept so each version of a file is compressed once. Entries are keyed
/// by path and checked against the file's ETag; past the byte budget the cache starts over.
final class GzipCache: Sendable {
    private struct Entry {
        let etag: String
        let data: Data
    }

    private struct Contents {
        var entries: [String: Entry] = [:]
        var bytes = 0
    }

    private let budget: Int
    private let contents = Mutex(Contents())

    init(budget: Int = 32 << 20) { self.budget = budget }

    /// The compressed bytes of `path` at version `etag`, compressing `read()` on a miss.
    func compressed(path: String, etag: String, read: () throws -> Data) rethrows -> Data? {
        if let hit = contents.withLock({ $0.entries[path] }), hit.etag == etag { return hit.data }
        guard let data = Gzip.compress(try read()) else { return nil }
        contents.withLock { contents in
            if contents.bytes + data.count > budget {
                contents.entries.removeAll()
                contents.bytes = 0
            }
            if let old = contents.entries.updateValue(Entry(etag: etag, data: data), forKey: path) {
                contents.bytes -= old.data.count
            }
            contents.bytes += data.count
        }
        return data
    }
}

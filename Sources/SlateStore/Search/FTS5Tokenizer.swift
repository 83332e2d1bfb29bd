import CSQLite
import Foundation
import Synchronization

/// SQLite's FTS5 tokenizer (`unicode61 remove_diacritics 2`, the one the SQLite backend's
/// search index uses), called directly: the PostgreSQL backend makes its search tokens with
/// it, so that both backends split and fold text exactly alike — by construction, not by a
/// second implementation of the rules.
///
/// One tokenizer for the process, on a private in-memory SQLite connection; the tokenizer
/// keeps a folding buffer, so calls take turns.
enum FTS5Tokenizer {
    /// The connection and the tokenizer made on it.
    ///
    /// `@unchecked Sendable`: used only inside `tokenizer`'s lock, one call at a time.
    private final class Shared: @unchecked Sendable {
        let database: SQLiteDatabase
        var unicode61 = slate_fts5_unicode61()

        init() throws {
            database = try SQLiteDatabase(path: ":memory:", mode: .create, busyTimeout: 1)
            guard slate_fts5_unicode61_open(database.handle, &unicode61) == SQLITE_OK, unicode61.instance != nil else {
                throw StoreError.invalidSchema("SQLite's FTS5 unicode61 tokenizer is not available")
            }
        }

        deinit { unicode61.methods.xDelete?(unicode61.instance) }
    }

    private static let tokenizer = Mutex<Shared?>(nil)

    /// Collects one call's tokens.
    private final class Tokens {
        var list: [String] = []
    }

    /// The folded tokens of `text`, in order, as FTS5 stores them.
    static func tokens(of text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes -> [String] in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return [] }
            let tokens = Tokens()
            let context = Unmanaged.passUnretained(tokens).toOpaque()
            tokenizer.withLock { shared in
                if shared == nil { shared = try? Shared() }
                guard let shared else { return }
                _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { pointer in
                    slate_fts5_tokenize(&shared.unicode61, context, pointer, Int32(bytes.count)) { context, _, token, length, _, _ in
                        guard let context, let token else { return SQLITE_OK }
                        let list = Unmanaged<Tokens>.fromOpaque(context).takeUnretainedValue()
                        let bytes = UnsafeRawBufferPointer(start: token, count: Int(length))
                        list.list.append(String(decoding: bytes, as: UTF8.self))
                        return SQLITE_OK
                    }
                }
            }
            return tokens.list
        }
    }
}

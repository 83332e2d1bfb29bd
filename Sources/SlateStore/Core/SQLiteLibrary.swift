import CSQLite

/// Process-wide settings of the SQLite library, made once before it initializes.
///
/// SQLite takes these only before its first use (`sqlite3_config` fails once the library
/// is initialized), so `SQLiteDatabase` asks for `configured` first thing, before it opens
/// a file and before `WriteAheadLog.vfsName`, whose `sqlite3_vfs_find` initializes the
/// library. Every connection the store makes goes through that initializer.
enum SQLiteLibrary {
    /// How large a savepoint or statement journal grows in memory before SQLite moves it
    /// into a temporary file.
    ///
    /// Every change of a group commit runs in a savepoint, and a savepoint keeps the old
    /// image of every page it changes until it is released: about 43 pages for a CalDAV PUT,
    /// one per table and index it touches. SQLite's default keeps 64 KiB in memory, so each
    /// such write created a file in the temporary folder, wrote about 200 KB into it (70
    /// `pwrite` calls) and deleted it: nearly half the system calls of a PUT. None of it is
    /// needed after a crash (the write-ahead log is what recovery reads), so memory is the
    /// right place up to a bound. 16 MiB holds a group of a few hundred ordinary changes;
    /// only a larger transaction (an import) spills to a file, as before.
    static let statementJournalSpill: Int32 = 16 << 20

    /// True once the settings are in place; false if SQLite was already initialized by
    /// other code in this process (then its defaults stay, which are correct, only slower).
    static let configured: Bool = slate_sqlite_config_statement_journal_spill(statementJournalSpill) == SQLITE_OK
}

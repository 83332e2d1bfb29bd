#ifndef SLATE_CSQLITE_SHIM_H
#define SLATE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro of a cast function pointer that Swift cannot import.
static inline sqlite3_destructor_type slate_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic: Swift cannot call it directly.
static inline int slate_sqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

// sqlite3_config is variadic too. SQLITE_CONFIG_STMTJRNL_SPILL: how large a statement or
// savepoint journal grows in memory before SQLite moves it into a temporary file.
static inline int slate_sqlite_config_statement_journal_spill(int bytes) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}

// SQLite's own FTS5 `unicode61 remove_diacritics 2` tokenizer, outside a table: SlateStore's
// PostgreSQL backend makes its search tokens with it, so both backends split and fold words
// exactly alike. (fts5_api is reached through `SELECT fts5(?1)`, as the FTS5 docs show.)
typedef struct {
    fts5_tokenizer methods;
    Fts5Tokenizer *instance;
} slate_fts5_unicode61;

static inline int slate_fts5_unicode61_open(sqlite3 *db, slate_fts5_unicode61 *out) {
    fts5_api *api = 0;
    sqlite3_stmt *statement = 0;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0) != SQLITE_OK) return SQLITE_ERROR;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (!api) return SQLITE_ERROR;
    void *context = 0;
    int code = api->xFindTokenizer(api, "unicode61", &context, &out->methods);
    if (code != SQLITE_OK) return code;
    const char *arguments[] = {"remove_diacritics", "2"};
    return out->methods.xCreate(context, arguments, 2, &out->instance);
}

typedef int (*slate_fts5_token_callback)(void *context, int flags, const char *token, int length, int start, int end);

static inline int slate_fts5_tokenize(slate_fts5_unicode61 *tokenizer, void *context, const char *text, int length,
                                      slate_fts5_token_callback callback) {
    return tokenizer->methods.xTokenize(tokenizer->instance, context, FTS5_TOKENIZE_DOCUMENT, text, length, callback);
}

#endif

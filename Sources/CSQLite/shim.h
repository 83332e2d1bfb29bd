#ifndef SLATE_CSQLITE_SHIM_H
#define SLATE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro of a cast function pointer that Swift cannot import.
static inline sqlite3_destructor_type slate_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic: Swift cannot call it directly.
static inline int slate_sqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif

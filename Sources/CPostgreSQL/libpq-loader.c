// The libpq functions SlateStore calls, each forwarding to libpq opened with dlopen on
// first use (include/CPostgreSQL.h says why). Every function is listed once, in
// SLATE_PQ_FUNCTIONS, with its libpq prototype; the compiler checks each definition below
// against libpq-fe.h, so a prototype copied wrong does not build.

#include "CPostgreSQL.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

// X(return type, name, parameters, arguments) for functions that return a value,
// V(name, parameters, arguments) for those that do not.
#define SLATE_PQ_FUNCTIONS(X, V)                                                                                        \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand),               \
      (keywords, values, expand))                                                                                      \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn))                                                          \
    V(PQfinish, (PGconn *conn), (conn))                                                                                \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))                                      \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn))                                                            \
    X(int, PQsocket, (const PGconn *conn), (conn))                                                                     \
    X(int, PQconsumeInput, (PGconn *conn), (conn))                                                                     \
    X(PGnotify *, PQnotifies, (PGconn *conn), (conn))                                                                  \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor processor, void *argument),            \
      (conn, processor, argument))                                                                                     \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg))                  \
    V(PQconninfoFree, (PQconninfoOption *options), (options))                                                          \
    V(PQfreemem, (void *pointer), (pointer))                                                                           \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query))                                            \
    X(PGresult *, PQprepare, (PGconn *conn, const char *name, const char *query, int count, const Oid *types),         \
      (conn, name, query, count, types))                                                                               \
    X(PGresult *, PQexecPrepared,                                                                                      \
      (PGconn *conn, const char *name, int count, const char *const *values, const int *lengths, const int *formats,   \
       int resultFormat),                                                                                              \
      (conn, name, count, values, lengths, formats, resultFormat))                                                     \
    V(PQclear, (PGresult *result), (result))                                                                           \
    X(ExecStatusType, PQresultStatus, (const PGresult *result), (result))                                              \
    X(char *, PQresultErrorField, (const PGresult *result, int field), (result, field))                                \
    X(char *, PQcmdStatus, (PGresult *result), (result))                                                               \
    X(char *, PQcmdTuples, (PGresult *result), (result))                                                               \
    X(int, PQntuples, (const PGresult *result), (result))                                                              \
    X(int, PQnfields, (const PGresult *result), (result))                                                              \
    X(char *, PQfname, (const PGresult *result, int field), (result, field))                                           \
    X(Oid, PQftype, (const PGresult *result, int field), (result, field))                                              \
    X(char *, PQgetvalue, (const PGresult *result, int row, int field), (result, row, field))                          \
    X(int, PQgetlength, (const PGresult *result, int row, int field), (result, row, field))                            \
    X(int, PQgetisnull, (const PGresult *result, int row, int field), (result, row, field))

#define SLATE_PQ_POINTER(type, name, parameters, arguments) type(*name) parameters;
#define SLATE_PQ_VOID_POINTER(name, parameters, arguments) void(*name) parameters;
static struct {
    SLATE_PQ_FUNCTIONS(SLATE_PQ_POINTER, SLATE_PQ_VOID_POINTER)
} libpq;

#ifdef __APPLE__
static const char *const library_names[] = {"libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",
                                             "/usr/local/opt/libpq/lib/libpq.5.dylib"};
#else
static const char *const library_names[] = {"libpq.so.5"};
#endif

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static atomic_int loaded = 0;
static char load_error[256];

static void load(void) {
    void *library = NULL;
    for (size_t index = 0; index < sizeof library_names / sizeof *library_names && !library; index++)
        library = dlopen(library_names[index], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "PostgreSQL support needs libpq, which is not installed (on Debian: apt install libpq5)");
        return;
    }
#define SLATE_PQ_FIND(name)                                                                                            \
    if (!(*(void **)&libpq.name = dlsym(library, #name))) {                                                            \
        snprintf(load_error, sizeof load_error, "the installed libpq is too old: it has no %s", #name);                \
        return;                                                                                                        \
    }
#define SLATE_PQ_FIND_VALUE(type, name, parameters, arguments) SLATE_PQ_FIND(name)
#define SLATE_PQ_FIND_VOID(name, parameters, arguments) SLATE_PQ_FIND(name)
    SLATE_PQ_FUNCTIONS(SLATE_PQ_FIND_VALUE, SLATE_PQ_FIND_VOID)
    atomic_store_explicit(&loaded, 1, memory_order_release);
}

int slate_pq_load(char *error, size_t size) {
    pthread_once(&load_once, load);
    int ready = atomic_load_explicit(&loaded, memory_order_acquire);
    if (!ready && error && size) snprintf(error, size, "%s", load_error);
    return ready;
}

/// Called by every forwarding function: a call before a successful `slate_pq_load` is a
/// programming error, stopped here rather than followed through a null pointer.
static void require_loaded(const char *name) {
    if (__builtin_expect(atomic_load_explicit(&loaded, memory_order_acquire), 1)) return;
    fprintf(stderr, "slate: %s called before libpq was loaded\n", name);
    abort();
}

// Hidden: the definitions serve this program's own calls only. Exported, they would also
// catch libpq's calls to its own functions once it is loaded.
#pragma GCC visibility push(hidden)
#define SLATE_PQ_FORWARD(type, name, parameters, arguments)                                                            \
    type name parameters {                                                                                             \
        require_loaded(#name);                                                                                         \
        return libpq.name arguments;                                                                                   \
    }
#define SLATE_PQ_VOID_FORWARD(name, parameters, arguments)                                                             \
    void name parameters {                                                                                             \
        require_loaded(#name);                                                                                         \
        libpq.name arguments;                                                                                          \
    }
SLATE_PQ_FUNCTIONS(SLATE_PQ_FORWARD, SLATE_PQ_VOID_FORWARD)
#pragma GCC visibility pop

static void ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

void slate_pg_silence_notices(PGconn *conn) { PQsetNoticeProcessor(conn, ignore_notice, 0); }

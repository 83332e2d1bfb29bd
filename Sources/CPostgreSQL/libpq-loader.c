// The libpq functions SlateStore calls, each forwarding to libpq opened with dlopen on
// first use (include/CPostgreSQL.h says why). Every function is listed once, in
// SLATE_PQ_FUNCTIONS, with its libpq prototype; the compiler checks each definition below
// against libpq-fe.h, so a prototype copied wrong does not build.

#include "CPostgreSQL.h"

#include "CLoader.h"

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
    X(int, PQsendQuery, (PGconn *conn, const char *query), (conn, query))                                              \
    X(int, PQsendQueryParams,                                                                                          \
      (PGconn *conn, const char *command, int count, const Oid *types, const char *const *values, const int *lengths,  \
       const int *formats, int resultFormat),                                                                          \
      (conn, command, count, types, values, lengths, formats, resultFormat))                                           \
    X(int, PQsendQueryPrepared,                                                                                        \
      (PGconn *conn, const char *name, int count, const char *const *values, const int *lengths, const int *formats,   \
       int resultFormat),                                                                                              \
      (conn, name, count, values, lengths, formats, resultFormat))                                                     \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn))                                                                 \
    X(int, PQenterPipelineMode, (PGconn *conn), (conn))                                                                \
    X(int, PQexitPipelineMode, (PGconn *conn), (conn))                                                                 \
    X(int, PQpipelineSync, (PGconn *conn), (conn))                                                                     \
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

static int resolve(void *handle, const char *title, char *error, size_t size) {
#define SLATE_PQ_FIND(name)                                                                                            \
    if (!slate_library_find(handle, #name, (void **)&libpq.name, title, error, size)) return 0;
#define SLATE_PQ_FIND_VALUE(type, name, parameters, arguments) SLATE_PQ_FIND(name)
#define SLATE_PQ_FIND_VOID(name, parameters, arguments) SLATE_PQ_FIND(name)
    SLATE_PQ_FUNCTIONS(SLATE_PQ_FIND_VALUE, SLATE_PQ_FIND_VOID)
    return 1;
}

static struct slate_library library = SLATE_LIBRARY(
    library_names, "libpq", "PostgreSQL support needs libpq, which is not installed (on Debian: apt install libpq5)", resolve);

int slate_pq_load(char *error, size_t size) { return slate_library_load(&library, error, size); }

// Hidden: the definitions serve this program's own calls only. Exported, they would also
// catch libpq's calls to its own functions once it is loaded.
#pragma GCC visibility push(hidden)
#define SLATE_PQ_FORWARD(type, name, parameters, arguments)                                                            \
    type name parameters {                                                                                             \
        slate_library_require(&library, #name);                                                                        \
        return libpq.name arguments;                                                                                   \
    }
#define SLATE_PQ_VOID_FORWARD(name, parameters, arguments)                                                             \
    void name parameters {                                                                                             \
        slate_library_require(&library, #name);                                                                        \
        libpq.name arguments;                                                                                          \
    }
SLATE_PQ_FUNCTIONS(SLATE_PQ_FORWARD, SLATE_PQ_VOID_FORWARD)
#pragma GCC visibility pop

static void ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

void slate_pg_silence_notices(PGconn *conn) { PQsetNoticeProcessor(conn, ignore_notice, 0); }

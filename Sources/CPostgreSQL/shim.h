#ifndef SLATE_CPOSTGRESQL_SHIM_H
#define SLATE_CPOSTGRESQL_SHIM_H

#include <libpq-fe.h>

// The PG_DIAG_* field codes are character macros; Swift imports them more reliably as
// functions. Only the fields SlateStore reads are here.
static inline int slate_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int slate_pg_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int slate_pg_diag_message_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }
static inline int slate_pg_diag_table_name(void) { return PG_DIAG_TABLE_NAME; }
static inline int slate_pg_diag_constraint_name(void) { return PG_DIAG_CONSTRAINT_NAME; }

// A notice processor that drops notices (NOTICE: relation already exists, …): libpq's
// default prints them on standard error, which is the server's log.
static inline void slate_pg_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }
static inline void slate_pg_silence_notices(PGconn *conn) { PQsetNoticeProcessor(conn, slate_pg_ignore_notice, 0); }

#endif

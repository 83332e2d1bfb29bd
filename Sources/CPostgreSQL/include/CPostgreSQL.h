#ifndef SLATE_CPOSTGRESQL_H
#define SLATE_CPOSTGRESQL_H

// libpq, seen from Swift, loaded when it is first needed.
//
// Most `slate` commands never touch PostgreSQL, and libpq brings 24 shared libraries
// (Kerberos, LDAP, OpenSSL, …) that the dynamic loader would otherwise map and relocate on
// every start. So `slate` is not linked against libpq: libpq-loader.c defines the libpq
// functions SlateStore calls, each forwarding to the library that `slate_pq_load` opens
// with dlopen. Call `slate_pq_load` (once is enough; it is cheap after the first time)
// before any other function here; until it has succeeded the others abort.

#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
#include <stddef.h>

/// Opens libpq and finds its functions. Returns 1 when they are ready; 0 when libpq is not
/// installed or is too old, with the reason in `error` (`size` bytes).
int slate_pq_load(char *error, size_t size);

// The PG_DIAG_* field codes are character macros; Swift imports them more reliably as
// functions. Only the fields SlateStore reads are here.
static inline int slate_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int slate_pg_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int slate_pg_diag_message_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }
static inline int slate_pg_diag_table_name(void) { return PG_DIAG_TABLE_NAME; }
static inline int slate_pg_diag_constraint_name(void) { return PG_DIAG_CONSTRAINT_NAME; }

/// A notice processor that drops notices (NOTICE: relation already exists, …): libpq's
/// default prints them on standard error, which is the server's log.
void slate_pg_silence_notices(PGconn *conn);

#endif

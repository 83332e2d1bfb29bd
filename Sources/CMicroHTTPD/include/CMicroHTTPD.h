#ifndef SLATE_CMICROHTTPD_H
#define SLATE_CMICROHTTPD_H

// libmicrohttpd, seen from Swift. The library's entry points that are variadic
// (MHD_start_daemon, MHD_get_daemon_info, MHD_get_connection_info) and its macros
// of casts cannot be imported, so they are wrapped here.
//
// libmicrohttpd is opened with dlopen when a server starts, not linked: most `slate`
// commands serve nothing, and it brings GnuTLS and seven more libraries that the dynamic
// loader would otherwise map and relocate on every start. microhttpd-loader.c defines the
// library functions Swift calls, each forwarding to the loaded library; call
// `slate_mhd_load` before any of them (until it has succeeded they abort).

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// Opens libmicrohttpd and finds its functions (once; cheap afterwards). Returns 1 when they
/// are ready; 0 when the library is not installed or is too old, with the reason in
/// `error` (`size` bytes).
int slate_mhd_load(char *error, size_t size);

/// The URI log callback has no typedef in microhttpd.h.
typedef void *(*slate_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// What `slate_mhd_start` passes to MHD_start_daemon besides the callbacks.
struct slate_mhd_limits {
    unsigned int thread_pool_size;   // 0 or 1: no pool, the one internal thread serves all
    size_t connection_memory_limit;  // per-connection pool: request line, headers, buffers
    unsigned int connection_timeout; // idle seconds before a connection is closed, 0 = never
    unsigned int per_ip_connection_limit; // 0 = unlimited
    unsigned int connection_limit;   // total; 0 = the library's default
    const char *tls_certificate;     // PEM, or NULL for plain HTTP
    const char *tls_key;             // PEM, or NULL for plain HTTP
};

/// Starts a daemon listening on `address` with the given callbacks and limits.
/// The URI log callback's result becomes the request's initial `*con_cls`.
struct MHD_Daemon *slate_mhd_start(
    unsigned int flags, const struct sockaddr *address, uint16_t port,
    MHD_AccessHandlerCallback access, void *access_cls,
    slate_mhd_uri_log_callback uri_log, void *uri_log_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    MHD_NotifyConnectionCallback notify, void *notify_cls,
    struct slate_mhd_limits limits);

/// The port the daemon is bound to (useful after asking for port 0), or 0.
uint16_t slate_mhd_bound_port(struct MHD_Daemon *daemon);

/// Stops the daemon listening without MHD_quiesce_daemon, which in 0.9.75 races with the
/// library's epoll threads and can abort the process ("Failed to remove listen FD from
/// epoll set": the thread and the call both remove the socket, and the loser panics).
/// The listening socket's descriptor is made to name the read end of a new, empty pipe
/// (dup2): the socket itself is closed, so the system refuses new connections and drops
/// it from every epoll set, and the library keeps a descriptor that never becomes ready,
/// which MHD_stop_daemon closes. Returns the pipe's write end, to close after
/// MHD_stop_daemon, or -1 (nothing changed) when this could not be done.
int slate_mhd_stop_listening(struct MHD_Daemon *daemon);

/// Writes the client's numeric address into `buffer`; returns 0 on success.
int slate_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size);

/// True when the library was built with TLS (GnuTLS).
int slate_mhd_supports_tls(void);

/// The connection's socket, or -1.
int slate_mhd_connection_fd(struct MHD_Connection *connection);

/// MHD_SIZE_UNKNOWN and the content reader's end markers are macros of casts.
static inline uint64_t slate_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
static inline ssize_t slate_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t slate_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#ifdef __linux__
#include <sys/epoll.h>

// The hang-up watch of open streams (SlateHTTP's HangUpWatch): an epoll set in which each
// stream's socket waits, once, for its peer to close. struct epoll_event is packed on
// x86-64, which Swift cannot build field by field, so the calls are made here.
static inline int slate_hangup_poller(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline int slate_hangup_watch(int poller, int socket, uint64_t key) {
    struct epoll_event event;
    event.events = EPOLLRDHUP | EPOLLHUP | EPOLLERR | EPOLLONESHOT;
    event.data.u64 = key;
    return epoll_ctl(poller, EPOLL_CTL_ADD, socket, &event);
}

static inline int slate_hangup_forget(int poller, int socket) {
    struct epoll_event unused;
    return epoll_ctl(poller, EPOLL_CTL_DEL, socket, &unused);
}

/// Waits up to `milliseconds` for hang-ups and writes the keys of up to `capacity` (at
/// most 256) of them; returns how many, or -1.
static inline int slate_hangup_wait(int poller, uint64_t *keys, int capacity, int milliseconds) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(poller, events, capacity, milliseconds);
    for (int index = 0; index < count; index++) keys[index] = events[index].data.u64;
    return count;
}
#endif

#endif

#ifndef SLATE_CMICROHTTPD_SHIM_H
#define SLATE_CMICROHTTPD_SHIM_H

// libmicrohttpd, seen from Swift. The library's entry points that are variadic
// (MHD_start_daemon, MHD_get_daemon_info, MHD_get_connection_info) and its macros
// of casts cannot be imported, so they are wrapped here in static inline functions.

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

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
static inline struct MHD_Daemon *slate_mhd_start(
    unsigned int flags, const struct sockaddr *address, uint16_t port,
    MHD_AccessHandlerCallback access, void *access_cls,
    slate_mhd_uri_log_callback uri_log, void *uri_log_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    MHD_NotifyConnectionCallback notify, void *notify_cls,
    struct slate_mhd_limits limits)
{
    struct MHD_OptionItem options[15];
    int n = 0;
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *) address };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) uri_log, uri_log_cls };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, completed_cls };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) notify, notify_cls };
    if (limits.thread_pool_size > 1)
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t) limits.thread_pool_size, NULL };
    if (limits.connection_memory_limit > 0)
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) limits.connection_memory_limit, NULL };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t) limits.connection_timeout, NULL };
    if (limits.per_ip_connection_limit > 0)
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t) limits.per_ip_connection_limit, NULL };
    if (limits.connection_limit > 0)
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t) limits.connection_limit, NULL };
    if (limits.tls_certificate != NULL && limits.tls_key != NULL) {
        flags |= MHD_USE_TLS;
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, (void *) limits.tls_certificate };
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, (void *) limits.tls_key };
    }
    // Strict parsing: an HTTP/1.1 request without Host, or with a space in a header name,
    // is refused 400 by the library itself.
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_STRICT_FOR_CLIENT, (intptr_t) 1, NULL };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(flags, port, NULL, NULL, access, access_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon is bound to (useful after asking for port 0), or 0.
static inline uint16_t slate_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Writes the client's numeric address into `buffer`; returns 0 on success.
static inline int slate_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    const void *raw = NULL;
    if (address->sa_family == AF_INET) raw = &((const struct sockaddr_in *) address)->sin_addr;
    else if (address->sa_family == AF_INET6) raw = &((const struct sockaddr_in6 *) address)->sin6_addr;
    else return -1;
    return inet_ntop(address->sa_family, raw, buffer, size) == NULL ? -1 : 0;
}

/// True when the library was built with TLS (GnuTLS).
static inline int slate_mhd_supports_tls(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }

/// The connection's socket, or -1.
static inline int slate_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

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

// The libmicrohttpd functions SlateHTTP calls, each forwarding to the library opened with
// dlopen (include/CMicroHTTPD.h says why), and the wrappers of its variadic entry points.
// Every function is listed once with its microhttpd.h prototype; the compiler checks each
// definition against the header, so a prototype copied wrong does not build.

#include "CMicroHTTPD.h"

#include "CLoader.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// X(return type, name, parameters, arguments) for functions that return a value,
// V(name, parameters, arguments) for those that do not.
#define SLATE_MHD_FUNCTIONS(X, V)                                                                                       \
    V(MHD_stop_daemon, (struct MHD_Daemon *daemon), (daemon))                                                          \
    X(MHD_socket, MHD_quiesce_daemon, (struct MHD_Daemon *daemon), (daemon))                                           \
    X(int, MHD_get_connection_values,                                                                                  \
      (struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *context),      \
      (connection, kind, iterator, context))                                                                           \
    X(enum MHD_Result, MHD_queue_response,                                                                             \
      (struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response),                         \
      (connection, status, response))                                                                                  \
    V(MHD_suspend_connection, (struct MHD_Connection *connection), (connection))                                       \
    V(MHD_resume_connection, (struct MHD_Connection *connection), (connection))                                        \
    X(struct MHD_Response *, MHD_create_response_from_callback,                                                        \
      (uint64_t size, size_t block_size, MHD_ContentReaderCallback reader, void *context,                              \
       MHD_ContentReaderFreeCallback free_context),                                                                    \
      (size, block_size, reader, context, free_context))                                                               \
    X(struct MHD_Response *, MHD_create_response_from_buffer,                                                          \
      (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))                             \
    X(struct MHD_Response *, MHD_create_response_from_buffer_with_free_callback_cls,                                   \
      (size_t size, void *buffer, MHD_ContentReaderFreeCallback free_buffer, void *context),                           \
      (size, buffer, free_buffer, context))                                                                            \
    X(struct MHD_Response *, MHD_create_response_from_fd64, (uint64_t size, int fd), (size, fd))                       \
    V(MHD_destroy_response, (struct MHD_Response *response), (response))                                               \
    X(enum MHD_Result, MHD_add_response_header,                                                                        \
      (struct MHD_Response *response, const char *header, const char *content), (response, header, content))

// The variadic entry points, called only from the wrappers below.
#define SLATE_MHD_VARIADIC(P) P(MHD_start_daemon) P(MHD_get_daemon_info) P(MHD_get_connection_info) P(MHD_is_feature_supported)

#define SLATE_MHD_POINTER(type, name, parameters, arguments) type(*name) parameters;
#define SLATE_MHD_VOID_POINTER(name, parameters, arguments) void(*name) parameters;
#define SLATE_MHD_TYPED_POINTER(name) __typeof__(name) *name;
static struct {
    SLATE_MHD_FUNCTIONS(SLATE_MHD_POINTER, SLATE_MHD_VOID_POINTER)
    SLATE_MHD_VARIADIC(SLATE_MHD_TYPED_POINTER)
} mhd;

#ifdef __APPLE__
static const char *const library_names[] = {"libmicrohttpd.12.dylib"};
#else
static const char *const library_names[] = {"libmicrohttpd.so.12"};
#endif

static int resolve(void *handle, const char *title, char *error, size_t size) {
#define SLATE_MHD_FIND(name)                                                                                           \
    if (!slate_library_find(handle, #name, (void **)&mhd.name, title, error, size)) return 0;
#define SLATE_MHD_FIND_VALUE(type, name, parameters, arguments) SLATE_MHD_FIND(name)
#define SLATE_MHD_FIND_VOID(name, parameters, arguments) SLATE_MHD_FIND(name)
    SLATE_MHD_FUNCTIONS(SLATE_MHD_FIND_VALUE, SLATE_MHD_FIND_VOID)
    SLATE_MHD_VARIADIC(SLATE_MHD_FIND)
    return 1;
}

static struct slate_library library = SLATE_LIBRARY(
    library_names, "libmicrohttpd", "serving needs libmicrohttpd, which is not installed (on Debian: apt install libmicrohttpd12)",
    resolve);

int slate_mhd_load(char *error, size_t size) { return slate_library_load(&library, error, size); }

/// Called by every forwarding function and wrapper (see CLoader.h).
static void require_loaded(const char *name) { slate_library_require(&library, name); }

// Hidden: the definitions serve this program's own calls only. Exported, they would also
// catch the library's calls to its own functions once it is loaded.
#pragma GCC visibility push(hidden)
#define SLATE_MHD_FORWARD(type, name, parameters, arguments)                                                           \
    type name parameters {                                                                                             \
        require_loaded(#name);                                                                                         \
        return mhd.name arguments;                                                                                     \
    }
#define SLATE_MHD_VOID_FORWARD(name, parameters, arguments)                                                            \
    void name parameters {                                                                                             \
        require_loaded(#name);                                                                                         \
        mhd.name arguments;                                                                                            \
    }
SLATE_MHD_FUNCTIONS(SLATE_MHD_FORWARD, SLATE_MHD_VOID_FORWARD)
#pragma GCC visibility pop

struct MHD_Daemon *slate_mhd_start(
    unsigned int flags, const struct sockaddr *address, uint16_t port,
    MHD_AccessHandlerCallback access, void *access_cls,
    slate_mhd_uri_log_callback uri_log, void *uri_log_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    MHD_NotifyConnectionCallback notify, void *notify_cls,
    struct slate_mhd_limits limits) {
    require_loaded("slate_mhd_start");
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
    return mhd.MHD_start_daemon(flags, port, NULL, NULL, access, access_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

uint16_t slate_mhd_bound_port(struct MHD_Daemon *daemon) {
    require_loaded("slate_mhd_bound_port");
    const union MHD_DaemonInfo *info = mhd.MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int slate_mhd_stop_listening(struct MHD_Daemon *daemon) {
    require_loaded("slate_mhd_stop_listening");
    const union MHD_DaemonInfo *info = mhd.MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    if (info == NULL || info->listen_fd < 0) return -1;
    int listening = info->listen_fd;
    int quiet[2];
    if (pipe(quiet) != 0) return -1;
    if (dup2(quiet[0], listening) < 0) {
        close(quiet[0]);
        close(quiet[1]);
        return -1;
    }
    // dup2 clears close-on-exec on the descriptor it replaces.
    fcntl(listening, F_SETFD, FD_CLOEXEC);
    fcntl(quiet[1], F_SETFD, FD_CLOEXEC);
    close(quiet[0]);
    return quiet[1];
}

int slate_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    require_loaded("slate_mhd_client_address");
    const union MHD_ConnectionInfo *info = mhd.MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    const void *raw = NULL;
    if (address->sa_family == AF_INET) raw = &((const struct sockaddr_in *) address)->sin_addr;
    else if (address->sa_family == AF_INET6) raw = &((const struct sockaddr_in6 *) address)->sin6_addr;
    else return -1;
    return inet_ntop(address->sa_family, raw, buffer, size) == NULL ? -1 : 0;
}

int slate_mhd_supports_tls(void) {
    require_loaded("slate_mhd_supports_tls");
    return mhd.MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

int slate_mhd_connection_fd(struct MHD_Connection *connection) {
    require_loaded("slate_mhd_connection_fd");
    const union MHD_ConnectionInfo *info = mhd.MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

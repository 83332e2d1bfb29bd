// Email over SMTP and HTTP POSTs with libcurl opened by dlopen (include/CCurl.h says why).
// The functions Slate uses are found once by `slate_curl_load`; their types come from
// curl.h, so a wrong one does not build.

#include "CCurl.h"

#include "CLoader.h"

#include <stdio.h>
#include <string.h>

static struct {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_reset) *easy_reset;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_perform) *easy_perform;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
    __typeof__(curl_easy_strerror) *easy_strerror;
} curl;

#ifdef __APPLE__
static const char *const library_names[] = {"libcurl.4.dylib"};
#else
static const char *const library_names[] = {"libcurl.so.4"};
#endif

static int resolve(void *handle, const char *title, char *error, size_t size) {
#define SLATE_CURL_FIND(field, name)                                                                                   \
    if (!slate_library_find(handle, #name, (void **)&curl.field, title, error, size)) return 0;
    SLATE_CURL_FIND(global_init, curl_global_init)
    SLATE_CURL_FIND(easy_init, curl_easy_init)
    SLATE_CURL_FIND(easy_cleanup, curl_easy_cleanup)
    SLATE_CURL_FIND(easy_reset, curl_easy_reset)
    SLATE_CURL_FIND(easy_setopt, curl_easy_setopt)
    SLATE_CURL_FIND(easy_perform, curl_easy_perform)
    SLATE_CURL_FIND(easy_getinfo, curl_easy_getinfo)
    SLATE_CURL_FIND(slist_append, curl_slist_append)
    SLATE_CURL_FIND(slist_free_all, curl_slist_free_all)
    SLATE_CURL_FIND(easy_strerror, curl_easy_strerror)
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(error, size, "libcurl could not start (curl_global_init failed)");
        return 0;
    }
    return 1;
}

static struct slate_library library = SLATE_LIBRARY(
    library_names, "libcurl", "sending alerts needs libcurl, which is not installed (on Debian: apt install libcurl4)", resolve);

int slate_curl_load(char *error, size_t size) { return slate_library_load(&library, error, size); }

CURL *slate_curl_open(void) { return slate_curl_load(NULL, 0) ? curl.easy_init() : NULL; }

void slate_curl_close(CURL *handle) {
    if (handle) curl.easy_cleanup(handle);
}

/// libcurl leaves its error buffer empty for some failures (a malformed URL): its text for
/// the code then.
static void describe(int result, char *error) {
    if (result != CURLE_OK && error[0] == 0) snprintf(error, CURL_ERROR_SIZE, "%s", curl.easy_strerror((CURLcode)result));
}

/// The answer for a transfer without a handle: libcurl is missing, or could not make one.
static int no_handle(char *error) {
    if (slate_curl_load(error, CURL_ERROR_SIZE)) snprintf(error, CURL_ERROR_SIZE, "libcurl could not open a connection");
    return CURLE_FAILED_INIT;
}

struct slate_smtp_body {
    const char *bytes;
    size_t length;
    size_t sent;
};

static size_t slate_smtp_read(char *buffer, size_t size, size_t count, void *context) {
    struct slate_smtp_body *body = (struct slate_smtp_body *)context;
    size_t room = size * count;
    size_t left = body->length - body->sent;
    size_t take = left < room ? left : room;
    memcpy(buffer, body->bytes + body->sent, take);
    body->sent += take;
    return take;
}

/// Options back to their defaults (the handle keeps its open connection), then the target.
static void begin(CURL *handle, const char *url, const char *protocols, char *error) {
    curl.easy_reset(handle);
    error[0] = 0;
    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, protocols);
}

/// Runs the transfer set up on `handle` within `timeout_seconds`; `code` gets the server's
/// last reply code (SMTP or HTTP). Returns a CURLcode, described in `error` on failure.
static int perform(CURL *handle, long timeout_seconds, char *error, long *code) {
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT, timeout_seconds);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, timeout_seconds);
    // A connection idle for a minute is not reused (servers may drop idle clients after a
    // few minutes; RFC 5321 asks SMTP servers to wait at least five).
    curl.easy_setopt(handle, CURLOPT_MAXAGE_CONN, 60L);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
    int result = (int)curl.easy_perform(handle);
    describe(result, error);
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, NULL);
    return result;
}

int slate_smtp_send(CURL *handle, const char *url, const char *username, const char *password, const char *from,
                    const char *to, const char *message, size_t length, int require_tls, long timeout_seconds,
                    char *error, long *response) {
    *response = 0;
    if (!handle) return no_handle(error);
    begin(handle, url, "smtp,smtps", error);
    struct slate_smtp_body body = {message, length, 0};
    struct curl_slist *recipients = curl.slist_append(NULL, to);
    curl.easy_setopt(handle, CURLOPT_USE_SSL, (long)(require_tls ? CURLUSESSL_ALL : CURLUSESSL_TRY));
    if (username) curl.easy_setopt(handle, CURLOPT_USERNAME, username);
    if (password) curl.easy_setopt(handle, CURLOPT_PASSWORD, password);
    curl.easy_setopt(handle, CURLOPT_MAIL_FROM, from);
    curl.easy_setopt(handle, CURLOPT_MAIL_RCPT, recipients);
    curl.easy_setopt(handle, CURLOPT_READFUNCTION, slate_smtp_read);
    curl.easy_setopt(handle, CURLOPT_READDATA, &body);
    curl.easy_setopt(handle, CURLOPT_UPLOAD, 1L);
    int result = perform(handle, timeout_seconds, error, response);
    curl.easy_setopt(handle, CURLOPT_MAIL_RCPT, NULL);
    curl.slist_free_all(recipients);
    return result;
}

static size_t drop_answer(char *buffer, size_t size, size_t count, void *context) {
    (void)buffer;
    (void)context;
    return size * count;
}

int slate_http_post(CURL *handle, const char *url, const char *headers, const void *body, size_t length,
                    long timeout_seconds, char *error, long *status) {
    *status = 0;
    if (!handle) return no_handle(error);
    begin(handle, url, "http,https", error);
    struct curl_slist *list = NULL;
    char line[1024];
    for (const char *start = headers, *end; (end = strchr(start, '\n')); start = end + 1) {
        size_t count = (size_t)(end - start) < sizeof line - 1 ? (size_t)(end - start) : sizeof line - 1;
        memcpy(line, start, count);
        line[count] = 0;
        list = curl.slist_append(list, line);
    }
    // libcurl would otherwise add "Expect: 100-continue" to larger bodies and wait for it.
    list = curl.slist_append(list, "Expect:");
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(handle, CURLOPT_POST, 1L);
    curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
    curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)length);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, drop_answer);
    int result = perform(handle, timeout_seconds, error, status);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, NULL);
    curl.slist_free_all(list);
    return result;
}

#ifndef SLATE_CCURL_SHIM_H
#define SLATE_CCURL_SHIM_H

// libcurl, seen from Swift: curl_easy_setopt is variadic, so sending a message over SMTP
// (the only thing Slate asks of libcurl) is written here once.

#include <curl/curl.h>
#include <string.h>

struct slate_smtp_body {
    const char *bytes;
    size_t length;
    size_t sent;
};

static size_t slate_smtp_read(char *buffer, size_t size, size_t count, void *context) {
    struct slate_smtp_body *body = (struct slate_smtp_body *) context;
    size_t room = size * count;
    size_t left = body->length - body->sent;
    size_t take = left < room ? left : room;
    memcpy(buffer, body->bytes + body->sent, take);
    body->sent += take;
    return take;
}

/// A connection to one SMTP server that stays open between messages: libcurl keeps the
/// connection of an easy handle and reuses it for the next transfer to the same server
/// (one TCP connection, one EHLO and STARTTLS, then MAIL FROM / RCPT TO / DATA per message).
/// Use a handle from one thread at a time.
static inline CURL *slate_smtp_open(void) { return curl_easy_init(); }

static inline void slate_smtp_close(CURL *curl) { if (curl) curl_easy_cleanup(curl); }

/// Sends `message` (a whole RFC 5322 message, CRLF line ends) from `from` to `to` through
/// the SMTP server at `url` on `curl`'s connection, opening one if it has none or it went
/// stale (smtp://host:port uses STARTTLS when the server offers it and `require_tls` is 0,
/// and insists on it when 1; smtps:// is TLS from the start). `username`/`password` may be
/// NULL. Returns a CURLcode; `error` (CURL_ERROR_SIZE bytes) says why on failure;
/// `response` gets the server's last SMTP code.
static inline int slate_smtp_send(CURL *curl, const char *url, const char *username, const char *password, const char *from,
                                  const char *to, const char *message, size_t length, int require_tls,
                                  long timeout_seconds, char *error, long *response) {
    if (!curl) return CURLE_FAILED_INIT;
    // Options back to their defaults; the handle keeps its open connection.
    curl_easy_reset(curl);
    struct slate_smtp_body body = { message, length, 0 };
    struct curl_slist *recipients = curl_slist_append(NULL, to);
    error[0] = 0;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(curl, CURLOPT_USE_SSL, (long) (require_tls ? CURLUSESSL_ALL : CURLUSESSL_TRY));
    if (username) curl_easy_setopt(curl, CURLOPT_USERNAME, username);
    if (password) curl_easy_setopt(curl, CURLOPT_PASSWORD, password);
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from);
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, slate_smtp_read);
    curl_easy_setopt(curl, CURLOPT_READDATA, &body);
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, timeout_seconds);
    // A connection idle for a minute is not reused (servers may drop idle clients after a
    // few minutes; RFC 5321 asks them to wait at least five).
    curl_easy_setopt(curl, CURLOPT_MAXAGE_CONN, 60L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    int result = (int) curl_easy_perform(curl);
    *response = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, response);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, NULL);
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, NULL);
    curl_slist_free_all(recipients);
    return result;
}

#endif

#ifndef SLATE_CCURL_H
#define SLATE_CCURL_H

// libcurl, seen from Swift, loaded when an alert is first sent over the network.
//
// Only `slate serve` sends alerts (email over SMTP, webhook and Web Push POSTs), and libcurl
// brings 32 shared libraries that the dynamic loader would otherwise map and relocate on
// every `slate` command. So `slate` is not linked against it: `slate_curl_load` opens it
// with dlopen, and the two transfers Slate makes (curl_easy_setopt is variadic, so they are
// written in C once) go through the functions found there.

#include <curl/curl.h>
#include <stddef.h>

/// Opens libcurl, finds its functions and initialises it (once; cheap afterwards). Returns 1
/// when it is ready; 0 when libcurl is not installed or cannot start, with the reason in
/// `error` (`size` bytes).
int slate_curl_load(char *error, size_t size);

/// A connection that stays open between transfers: libcurl keeps the connection of an easy
/// handle and reuses it for the next transfer to the same server (for SMTP: one TCP
/// connection, one EHLO and STARTTLS, then MAIL FROM / RCPT TO / DATA per message). Use a
/// handle from one thread at a time. NULL when libcurl is not loaded.
CURL *slate_curl_open(void);

void slate_curl_close(CURL *curl);

/// Sends `message` (a whole RFC 5322 message, CRLF line ends) from `from` to `to` through
/// the SMTP server at `url` on `curl`'s connection, opening one if it has none or it went
/// stale (smtp://host:port uses STARTTLS when the server offers it and `require_tls` is 0,
/// and insists on it when 1; smtps:// is TLS from the start). `username`/`password` may be
/// NULL. Returns a CURLcode; `error` (CURL_ERROR_SIZE bytes) says why on failure;
/// `response` gets the server's last SMTP code.
int slate_smtp_send(CURL *curl, const char *url, const char *username, const char *password, const char *from,
                    const char *to, const char *message, size_t length, int require_tls, long timeout_seconds,
                    char *error, long *response);

/// POSTs `length` bytes of `body` to the http(s) `url` on `curl`'s connection with the
/// request headers in `headers` ("Name: value" lines, each ended by a newline), following no
/// redirect and giving up after `timeout_seconds`; the answer's body is dropped. Returns a
/// CURLcode; `error` (CURL_ERROR_SIZE bytes) says why on failure; `status` gets the HTTP
/// status.
int slate_http_post(CURL *curl, const char *url, const char *headers, const void *body, size_t length,
                    long timeout_seconds, char *error, long *status);

#endif

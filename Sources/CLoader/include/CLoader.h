#ifndef SLATE_CLOADER_H
#define SLATE_CLOADER_H

// One shared library that Slate opens with dlopen the first time it is needed, instead of
// linking it into every command (libpq, libmicrohttpd, libcurl, libcrypto: each C target
// that wraps one says why). The opening, the once-only guard, the error kept for later
// callers and the check that stops a call before the library is open live here once; a
// wrapper declares its library with SLATE_LIBRARY and finds its functions in `resolve`.
//
// Only C sources include this header; Swift sees each wrapper's own functions.

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/// A library to open on first use. Declare one with SLATE_LIBRARY; never copy it.
struct slate_library {
    /// The file names to try, in order.
    const char *const *names;
    size_t name_count;
    /// The library's name in messages, such as "libpq".
    const char *title;
    /// The message when none of `names` opens (it names the Debian package).
    const char *missing;
    /// Finds the library's functions in `handle` (with `slate_library_find`) and starts
    /// it if it needs that. Returns 1, or 0 with the reason in `error` (`size` bytes).
    int (*resolve)(void *handle, const char *title, char *error, size_t size);
    pthread_mutex_t lock;
    /// 0 not tried yet, 1 open and resolved, -1 failed (the reason in `error`).
    atomic_int state;
    char error[256];
};

/// `static struct slate_library libpq = SLATE_LIBRARY(names, "libpq", "… apt install libpq5", resolve);`
/// where `names` is an array of file names.
#define SLATE_LIBRARY(names_, title_, missing_, resolve_)                                                              \
    {(names_), sizeof(names_) / sizeof *(names_), (title_), (missing_), (resolve_), PTHREAD_MUTEX_INITIALIZER, 0, {0}}

/// Opens `library` and resolves it, the first time only; later calls answer at once with
/// the first one's outcome. Returns 1 when ready; 0 with the reason in `error` (`size`
/// bytes, may be NULL).
int slate_library_load(struct slate_library *library, char *error, size_t size);

/// Finds `name` in `handle` into `*slot`. Returns 1, or 0 with "the installed TITLE is too
/// old: it has no NAME" in `error`.
int slate_library_find(void *handle, const char *name, void **slot, const char *title, char *error, size_t size);

/// Prints that `function` was called before `library` was open, and aborts.
void slate_library_misused(const struct slate_library *library, const char *function) __attribute__((noreturn));

/// Called by every forwarding function: a call before a successful `slate_library_load`
/// is a programming error, stopped here rather than followed through a null pointer.
static inline void slate_library_require(struct slate_library *library, const char *function) {
    if (__builtin_expect(atomic_load_explicit(&library->state, memory_order_acquire) == 1, 1)) return;
    slate_library_misused(library, function);
}

#endif

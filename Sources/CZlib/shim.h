#ifndef SLATE_CZLIB_SHIM_H
#define SLATE_CZLIB_SHIM_H

// zlib, seen from Swift: deflateInit2 and inflateInit2 are macros, so whole-buffer
// gzip and gunzip are written here once.

#include <string.h>
#include <zlib.h>

/// An upper bound on the gzip size of `length` bytes.
static inline size_t slate_gzip_bound(size_t length) {
    return (size_t) compressBound((uLong) length) + 32; // + gzip header and trailer
}

/// Compresses `input` as one gzip member into `output`; returns the bytes written, 0 on failure.
static inline size_t slate_gzip(const void *input, size_t length, void *output, size_t capacity, int level) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    stream.next_in = (Bytef *) input;
    stream.avail_in = (uInt) length;
    stream.next_out = (Bytef *) output;
    stream.avail_out = (uInt) capacity;
    int status = deflate(&stream, Z_FINISH);
    size_t written = stream.total_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END ? written : 0;
}

/// Decompresses gzip `input` into `output`; returns the bytes written, or -1 when the
/// input is not gzip or `output` is too small.
static inline long slate_gunzip(const void *input, size_t length, void *output, size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, 15 + 16) != Z_OK) return -1;
    stream.next_in = (Bytef *) input;
    stream.avail_in = (uInt) length;
    stream.next_out = (Bytef *) output;
    stream.avail_out = (uInt) capacity;
    int status = inflate(&stream, Z_FINISH);
    long written = (long) stream.total_out;
    inflateEnd(&stream);
    return status == Z_STREAM_END ? written : -1;
}

#endif

#ifndef SLATE_CMEMORY_H
#define SLATE_CMEMORY_H

/// Gives the system back the pages the C library's allocator holds free (glibc's
/// `malloc_trim`; Swift's Glibc module does not export it). Returns 1 when memory was
/// released, 0 when there was none to release or the C library cannot.
int slate_release_free_memory(void);

#endif

// epoll for bench/server's sse-client, which Swift's Glibc module does not export.
#ifndef C_EVENT_POLL_H
#define C_EVENT_POLL_H
#include <stdint.h>

/// A new epoll set, or -1.
int event_poll_create(void);
/// Watches `socket` for input and hang-up; `tag` comes back from `event_poll_wait`.
int event_poll_add(int poller, int socket, uint64_t tag);
/// Stops watching `socket`.
int event_poll_remove(int poller, int socket);
/// Waits up to `milliseconds` and writes the tags of up to `capacity` ready sockets;
/// returns how many (0 on timeout, -1 on an error).
int event_poll_wait(int poller, uint64_t *tags, int capacity, int milliseconds);

#endif

#include "CEventPoll.h"
#include <sys/epoll.h>

int event_poll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int event_poll_add(int poller, int socket, uint64_t tag) {
    struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP, .data.u64 = tag};
    return epoll_ctl(poller, EPOLL_CTL_ADD, socket, &event);
}

int event_poll_remove(int poller, int socket) { return epoll_ctl(poller, EPOLL_CTL_DEL, socket, 0); }

int event_poll_wait(int poller, uint64_t *tags, int capacity, int milliseconds) {
    struct epoll_event events[1024];
    if (capacity > 1024) capacity = 1024;
    int count = epoll_wait(poller, events, capacity, milliseconds);
    for (int index = 0; index < count; index++) tags[index] = events[index].data.u64;
    return count;
}

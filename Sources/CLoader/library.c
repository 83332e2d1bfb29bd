// Opening a library on first use (include/CLoader.h).

#include "CLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int slate_library_load(struct slate_library *library, char *error, size_t size) {
    int state = atomic_load_explicit(&library->state, memory_order_acquire);
    if (state == 0) {
        pthread_mutex_lock(&library->lock);
        state = atomic_load_explicit(&library->state, memory_order_acquire);
        if (state == 0) {
            void *handle = NULL;
            for (size_t index = 0; index < library->name_count && !handle; index++)
                handle = dlopen(library->names[index], RTLD_NOW | RTLD_LOCAL);
            if (!handle) {
                snprintf(library->error, sizeof library->error, "%s", library->missing);
                state = -1;
            } else {
                state = library->resolve(handle, library->title, library->error, sizeof library->error) ? 1 : -1;
            }
            atomic_store_explicit(&library->state, state, memory_order_release);
        }
        pthread_mutex_unlock(&library->lock);
    }
    if (state != 1 && error && size) snprintf(error, size, "%s", library->error);
    return state == 1;
}

int slate_library_find(void *handle, const char *name, void **slot, const char *title, char *error, size_t size) {
    if ((*slot = dlsym(handle, name))) return 1;
    snprintf(error, size, "the installed %s is too old: it has no %s", title, name);
    return 0;
}

void slate_library_misused(const struct slate_library *library, const char *function) {
    fprintf(stderr, "slate: %s called before %s was loaded\n", function, library->title);
    abort();
}

#define _GNU_SOURCE
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include "CPlatform.h"

int odrpack_start_writeback(int descriptor) {
#ifdef __linux__
    return sync_file_range(descriptor, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)descriptor;
    return 0;
#endif
}

#ifdef __linux__
#include <sys/vfs.h>
#endif

long long odrpack_file_system_type(const char *path) {
#ifdef __linux__
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    return (long long)(unsigned long)info.f_type;
#else
    (void)path;
    return -1;
#endif
}

#ifdef __GLIBC__
#include <malloc.h>
#endif

void odrpack_release_free_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

int odrpack_open_unlinked(const char *folder) {
#if defined(__linux__) && defined(O_TMPFILE)
    return open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#else
    (void)folder;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

static volatile sig_atomic_t interrupt_holds = 0;
static volatile sig_atomic_t interrupt_pending = 0;

int odrpack_interrupt_hold(int delta) {
    interrupt_holds += delta;
    return interrupt_holds;
}

int odrpack_interrupt_mark_pending(void) {
    int was = interrupt_pending;
    interrupt_pending = 1;
    return was;
}

int odrpack_interrupt_pending(void) { return interrupt_pending; }

#ifndef ODRPACK_CPLATFORM_H
#define ODRPACK_CPLATFORM_H

/// Linux calls that Swift's Glibc module does not show (they need _GNU_SOURCE). Only Platform uses them.

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writing a file's dirty pages without waiting.
int odrpack_start_writeback(int descriptor);

/// statfs(2)'s f_type (the file system's magic number) of the file system holding `path`; -1 when it cannot be had
/// or on a system without it. Swift's Glibc module does not show <sys/vfs.h>.
long long odrpack_file_system_type(const char *path);

/// malloc_trim(0) where glibc has it (<malloc.h>, which Swift's Glibc module does not show); nothing elsewhere.
void odrpack_release_free_memory(void);

/// open(2) of a new file in `folder` with O_TMPFILE (no name; gone with its last descriptor), for reading and writing;
/// -1 with errno set where the system or the file system has no O_TMPFILE.
int odrpack_open_unlinked(const char *folder);

/// Ctrl-C held (Interrupt.holding): the depth of held sections, changed by `delta`; returns the new depth. The
/// counters are `volatile sig_atomic_t`, what a signal handler may read and write.
int odrpack_interrupt_hold(int delta);

/// Marks a Ctrl-C that arrived while held (from the signal handler); returns whether one was marked already.
int odrpack_interrupt_mark_pending(void);

/// Whether a Ctrl-C arrived while held and has not been acted on.
int odrpack_interrupt_pending(void);

#endif

#ifndef ODRPACK_CSYSTEM_H
#define ODRPACK_CSYSTEM_H

/// A Linux call that Swift's Glibc module does not show (it needs _GNU_SOURCE). Only `SystemCall` uses it.

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writing a file's dirty pages without waiting.
int odrpack_start_writeback(int descriptor);

/// statfs(2)'s f_type (the file system's magic number) of the file system holding `path`; -1 when it cannot be had
/// or on a system without it. Swift's Glibc module does not show <sys/vfs.h>.
long long odrpack_file_system_type(const char *path);

/// malloc_trim(0) where glibc has it (<malloc.h>, which Swift's Glibc module does not show); nothing elsewhere.
void odrpack_release_free_memory(void);

#endif

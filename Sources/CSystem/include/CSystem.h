#ifndef ODRPACK_CSYSTEM_H
#define ODRPACK_CSYSTEM_H

/// Linux calls that Swift's Glibc module does not show (they need _GNU_SOURCE). Only `SystemCall` uses them.

/// syncfs(2): waits until everything written to the file system holding `descriptor` is on stable storage.
int odrpack_syncfs(int descriptor);

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writing a file's dirty pages without waiting.
int odrpack_start_writeback(int descriptor);

#endif

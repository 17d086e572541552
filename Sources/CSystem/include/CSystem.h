#ifndef ODRPACK_CSYSTEM_H
#define ODRPACK_CSYSTEM_H

/// A Linux call that Swift's Glibc module does not show (it needs _GNU_SOURCE). Only `SystemCall` uses it.

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writing a file's dirty pages without waiting.
int odrpack_start_writeback(int descriptor);

#endif

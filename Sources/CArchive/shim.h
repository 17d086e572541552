#ifndef ODRPACK_CARCHIVE_SHIM_H
#define ODRPACK_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>
#include <sys/stat.h>

#endif

#ifndef ODRPACK_CARCHIVE_SHIM_H
#define ODRPACK_CARCHIVE_SHIM_H
/* libarchive: the tests' independent reader of the archives odrpack writes. The product does not link it. */
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

#endif

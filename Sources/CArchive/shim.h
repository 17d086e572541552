#ifndef ODRPACK_CARCHIVE_SHIM_H
#define ODRPACK_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>
#include <sys/stat.h>

/// `AE_IFREG` is a macro Swift cannot import; re-exported as a constant.
static const unsigned int ODR_AE_IFREG = AE_IFREG;
#endif

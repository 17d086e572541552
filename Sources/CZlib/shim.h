#ifndef ODRPACK_CZLIB_SHIM_H
#define ODRPACK_CZLIB_SHIM_H
#include <zlib.h>
#endif

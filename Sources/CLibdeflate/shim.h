#ifndef ODRPACK_CLIBDEFLATE_SHIM_H
#define ODRPACK_CLIBDEFLATE_SHIM_H
#include <libdeflate.h>
#endif

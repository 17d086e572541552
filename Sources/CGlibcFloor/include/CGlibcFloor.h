// Nothing to call: this target only links definitions into the odrpack binary (CGlibcFloor.c says why).
#ifndef CGLIBCFLOOR_H
#define CGLIBCFLOOR_H
#endif

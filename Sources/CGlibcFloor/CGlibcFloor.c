// The C library symbols whose version is newer than the release binary's floor, glibc 2.34 (RHEL 9, Amazon Linux
// 2023; docs/install.md#what-the-linux-binary-needs-the-c-library), defined in the binary so that it does not ask the
// system's glibc for them. Each definition is hidden: the binary exports it to no library it loads (libcurl keeps the
// system's), and it only answers the references of what is linked in, the Swift runtime, Foundation and libstdc++ of
// `make dist`. In a debug build those are shared libraries, which never see these definitions.
#if defined(__linux__)
#include <features.h>
#endif

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>

#if defined(__x86_64__)
#define ODRPACK_LIBM_FIRST_VERSION "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define ODRPACK_LIBM_FIRST_VERSION "GLIBC_2.17"
#endif

#ifdef ODRPACK_LIBM_FIRST_VERSION
// glibc 2.35 gave `hypot` and `hypotf` a new version, GLIBC_2.35, for the same computation without the old wrapper
// (which only sets errno on a range error, as the new one does itself). The Swift runtime (Glibc's `hypotf`) and
// Foundation (`CGFloat`'s `hypot`) call them, so a binary linked against glibc 2.35 or later asks for GLIBC_2.35 for
// two functions odrpack never calls on a hot path. These call libm's first version of each by name (`.symver`),
// which every glibc since the architecture's first has.
double odrpack_libm_hypot(double x, double y);
float odrpack_libm_hypotf(float x, float y);
__asm__(".symver odrpack_libm_hypot, hypot@" ODRPACK_LIBM_FIRST_VERSION);
__asm__(".symver odrpack_libm_hypotf, hypotf@" ODRPACK_LIBM_FIRST_VERSION);

__attribute__((visibility("hidden"))) double hypot(double x, double y) { return odrpack_libm_hypot(x, y); }
__attribute__((visibility("hidden"))) float hypotf(float x, float y) { return odrpack_libm_hypotf(x, y); }
#endif

// glibc 2.36 added `arc4random`, and a libstdc++ built against it (GCC 12's on Debian 12) names it in
// `std::random_device`, which its COW strings' object pulls into the link. odrpack never makes a random_device, so the
// linker drops that code, but the import stays and would ask for GLIBC_2.36. This one draws from getrandom
// (glibc 2.25), as glibc's does, and like glibc's it gives up only when the kernel cannot give randomness at all.
__attribute__((visibility("hidden"))) uint32_t arc4random(void) {
    uint32_t value;
    for (;;) {
        ssize_t got = getrandom(&value, sizeof value, 0);
        if (got == (ssize_t)sizeof value) return value;
        if (got < 0 && errno != EINTR) abort();
    }
}

#endif

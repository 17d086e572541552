#include "CSHA256.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// MARK: Portable C (FIPS 180-4, section 6.2.2)

static inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void odrpack_sha256_blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
    for (; blocks > 0; blocks--, data += 64) {
        uint32_t w[64];
        for (int t = 0; t < 16; t++) {
            w[t] = (uint32_t)data[4 * t] << 24 | (uint32_t)data[4 * t + 1] << 16 | (uint32_t)data[4 * t + 2] << 8 | data[4 * t + 3];
        }
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
            uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>

#define SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))

int odrpack_sha256_accelerated(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19)) || !(c & (1u << 9))) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 29) & 1;
}

/// The state as the SHA instructions hold it: ABEF and CDGH.
SHA_TARGET static inline void load_state(const uint32_t state[8], __m128i *abef, __m128i *cdgh) {
    __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0xB1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(state + 4)), 0x1B);
    *abef = _mm_alignr_epi8(dcba, efgh, 8);
    *cdgh = _mm_blend_epi16(efgh, dcba, 0xF0);
}

SHA_TARGET static inline void store_state(uint32_t state[8], __m128i abef, __m128i cdgh) {
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)state, _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

/// Message words 4i..4i+3 from the four before them (held in m[0..3], oldest at (i & 3)).
#define SCHEDULE(m, i) \
    (m[(i) & 3] = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(m[(i) & 3], m[((i) + 1) & 3]), \
                                                     _mm_alignr_epi8(m[((i) + 3) & 3], m[((i) + 2) & 3], 4)), \
                                       m[((i) + 3) & 3]))
/// Four rounds with message words `w` plus constants `k`.
#define ROUNDS(abef, cdgh, w, k) do { \
        __m128i wk = _mm_add_epi32((w), (k)); \
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk); \
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E)); \
    } while (0)

#define BSWAP_MASK _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL)

SHA_TARGET static void blocks_ni(uint32_t state[8], const uint8_t *data, size_t blocks) {
    __m128i abef, cdgh;
    load_state(state, &abef, &cdgh);
    for (; blocks > 0; blocks--, data += 64) {
        __m128i saved_abef = abef, saved_cdgh = cdgh, m[4];
        for (int i = 0; i < 4; i++) {
            m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), BSWAP_MASK);
            ROUNDS(abef, cdgh, m[i], _mm_loadu_si128((const __m128i *)(K + 4 * i)));
        }
#define GROUP(i) ROUNDS(abef, cdgh, SCHEDULE(m, i), _mm_loadu_si128((const __m128i *)(K + 4 * (i))))
        GROUP(4); GROUP(5); GROUP(6); GROUP(7); GROUP(8); GROUP(9); GROUP(10); GROUP(11);
        GROUP(12); GROUP(13); GROUP(14); GROUP(15);
#undef GROUP
        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
    }
    store_state(state, abef, cdgh);
}

SHA_TARGET static void blocks2_ni(uint32_t state_a[8], const uint8_t *a, uint32_t state_b[8], const uint8_t *b,
                                  size_t blocks) {
    __m128i abef_a, cdgh_a, abef_b, cdgh_b;
    load_state(state_a, &abef_a, &cdgh_a);
    load_state(state_b, &abef_b, &cdgh_b);
    for (; blocks > 0; blocks--, a += 64, b += 64) {
        __m128i saved_abef_a = abef_a, saved_cdgh_a = cdgh_a, saved_abef_b = abef_b, saved_cdgh_b = cdgh_b;
        __m128i m[4], n[4];
        for (int i = 0; i < 4; i++) {
            __m128i k = _mm_loadu_si128((const __m128i *)(K + 4 * i));
            m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(a + 16 * i)), BSWAP_MASK);
            n[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(b + 16 * i)), BSWAP_MASK);
            ROUNDS(abef_a, cdgh_a, m[i], k);
            ROUNDS(abef_b, cdgh_b, n[i], k);
        }
#define GROUP(i) do { \
            __m128i k = _mm_loadu_si128((const __m128i *)(K + 4 * (i))); \
            ROUNDS(abef_a, cdgh_a, SCHEDULE(m, i), k); \
            ROUNDS(abef_b, cdgh_b, SCHEDULE(n, i), k); \
        } while (0)
        GROUP(4); GROUP(5); GROUP(6); GROUP(7); GROUP(8); GROUP(9); GROUP(10); GROUP(11);
        GROUP(12); GROUP(13); GROUP(14); GROUP(15);
#undef GROUP
        abef_a = _mm_add_epi32(abef_a, saved_abef_a);
        cdgh_a = _mm_add_epi32(cdgh_a, saved_cdgh_a);
        abef_b = _mm_add_epi32(abef_b, saved_abef_b);
        cdgh_b = _mm_add_epi32(cdgh_b, saved_cdgh_b);
    }
    store_state(state_a, abef_a, cdgh_a);
    store_state(state_b, abef_b, cdgh_b);
}

static atomic_int accelerated = -1;

static int use_ni(void) {
    int known = atomic_load_explicit(&accelerated, memory_order_relaxed);
    if (known < 0) {
        // Threads that get here at once all store the same answer.
        known = odrpack_sha256_accelerated();
        atomic_store_explicit(&accelerated, known, memory_order_relaxed);
    }
    return known;
}

void odrpack_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    if (use_ni()) blocks_ni(state, data, blocks);
    else odrpack_sha256_blocks_portable(state, data, blocks);
}

void odrpack_sha256_blocks2(uint32_t state_a[8], const uint8_t *data_a, uint32_t state_b[8], const uint8_t *data_b,
                            size_t blocks) {
    if (use_ni()) {
        blocks2_ni(state_a, data_a, state_b, data_b, blocks);
    } else {
        odrpack_sha256_blocks_portable(state_a, data_a, blocks);
        odrpack_sha256_blocks_portable(state_b, data_b, blocks);
    }
}

#else

int odrpack_sha256_accelerated(void) { return 0; }

void odrpack_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    odrpack_sha256_blocks_portable(state, data, blocks);
}

void odrpack_sha256_blocks2(uint32_t state_a[8], const uint8_t *data_a, uint32_t state_b[8], const uint8_t *data_b,
                            size_t blocks) {
    odrpack_sha256_blocks_portable(state_a, data_a, blocks);
    odrpack_sha256_blocks_portable(state_b, data_b, blocks);
}

#endif

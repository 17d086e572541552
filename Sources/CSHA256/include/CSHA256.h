#ifndef ODRPACK_CSHA256_H
#define ODRPACK_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256's compression function over whole 64-byte blocks, for `SHA256Hasher`: with the x86 SHA extensions two
/// independent messages are compressed in one interleaved pass, faster than hashing them in turn (each round waits
/// on the one before it, so a second message fills the gaps). Only `SHA256Hasher` calls these.

/// 1 when the CPU has the SHA extensions (x86-64 SHA-NI with SSSE3 and SSE4.1); otherwise the functions below fall
/// back to portable C, and `SHA256Hasher` uses swift-crypto instead.
int odrpack_sha256_accelerated(void);

/// Compresses `blocks` 64-byte blocks of `data` into `state` (eight words, H0 first).
void odrpack_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

/// The same as two calls of `odrpack_sha256_blocks`, `blocks` blocks each, interleaved.
void odrpack_sha256_blocks2(uint32_t state_a[8], const uint8_t *data_a, uint32_t state_b[8], const uint8_t *data_b,
                            size_t blocks);

/// `odrpack_sha256_blocks` in portable C whatever the CPU, so tests check the fallback on every machine.
void odrpack_sha256_blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif

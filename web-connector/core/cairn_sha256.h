/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), self-contained: no library call per
 * request, no lock, no allocation. (OpenSSL 3's one-shot calls look the algorithm up on every
 * call, which cost more than the hashing itself at this size.)
 */
#ifndef CAIRN_SHA256_H
#define CAIRN_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t state[8];
    uint64_t length;       /* bytes hashed so far */
    unsigned char block[64];
    size_t used;           /* bytes waiting in block */
} cairn_sha256_ctx;

/*
 * Whether to use the CPU's SHA instructions where it has them (the default). Returns whether
 * they are used from now on; for tests and benchmarks that compare both ways.
 */
int cairn_sha256_use_cpu_extensions(int wanted);

void cairn_sha256_init(cairn_sha256_ctx *ctx);
void cairn_sha256_update(cairn_sha256_ctx *ctx, const void *data, size_t len);
void cairn_sha256_final(cairn_sha256_ctx *ctx, unsigned char digest[32]);
void cairn_sha256(const void *data, size_t len, unsigned char digest[32]);
void cairn_hmac_sha256(const unsigned char *key, size_t key_len, const void *msg, size_t msg_len,
                       unsigned char mac[32]);

/* A key's inner and outer hash states, computed once: each MAC then costs two blocks less. */
typedef struct {
    cairn_sha256_ctx inner;
    cairn_sha256_ctx outer;
} cairn_hmac_key;

void cairn_hmac_sha256_prepare(cairn_hmac_key *prepared, const unsigned char *key, size_t key_len);
void cairn_hmac_sha256_prepared(const cairn_hmac_key *prepared, const void *msg, size_t msg_len,
                                unsigned char mac[32]);

#endif

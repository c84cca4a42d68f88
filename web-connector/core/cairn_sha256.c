#include "cairn_sha256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static void compress_portable(uint32_t state[8], const unsigned char block[64])
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++) {
        w[i] = (uint32_t) block[4 * i] << 24 | (uint32_t) block[4 * i + 1] << 16
               | (uint32_t) block[4 * i + 2] << 8 | (uint32_t) block[4 * i + 3];
    }
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}


#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

/*
 * The same rounds with the CPU's SHA extensions (x86 SHA-NI): a block in a fraction of the
 * portable code's time. The state is kept as the instructions want it (ABEF, CDGH) across blocks.
 */
__attribute__((target("sha,sse4.1,ssse3"))) static void compress_shani(uint32_t state[8],
                                                                        const unsigned char *data,
                                                                        size_t blocks)
{
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *) &state[0]), 0xB1); /* CDAB */
    __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *) &state[4]), 0x1B); /* EFGH */
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);   /* ABEF */
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);        /* CDGH */
    for (; blocks > 0; blocks--, data += 64) {
        __m128i abef = state0, cdgh = state1;
        __m128i w[16];
        for (int i = 0; i < 16; i++) {
            if (i < 4) {
                w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *) (data + 16 * i)), byte_swap);
            } else {
                __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(w[i - 4], w[i - 3]),
                                          _mm_alignr_epi8(w[i - 1], w[i - 2], 4));
                w[i] = _mm_sha256msg2_epu32(t, w[i - 1]);
            }
            __m128i msg = _mm_add_epi32(w[i], _mm_loadu_si128((const __m128i *) &K[4 * i]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
            state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(msg, 0x0E));
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
    }
    tmp = _mm_shuffle_epi32(state0, 0x1B);              /* FEBA */
    state1 = _mm_shuffle_epi32(state1, 0xB1);           /* DCHG */
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);        /* DCBA */
    state1 = _mm_alignr_epi8(state1, tmp, 8);           /* HGFE */
    _mm_storeu_si128((__m128i *) &state[0], state0);
    _mm_storeu_si128((__m128i *) &state[4], state1);
}

static int cpu_has_sha(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1)) {
        return 0;
    }
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}
#define CAIRN_HAVE_SHANI 1
#else
#define CAIRN_HAVE_SHANI 0
#endif

/* -1: not decided yet; set once from the CPU (a race only writes the same value twice). */
static int use_extensions = -1;

int cairn_sha256_use_cpu_extensions(int wanted)
{
#if CAIRN_HAVE_SHANI
    int available = cpu_has_sha();
#else
    int available = 0;
#endif
    __atomic_store_n(&use_extensions, wanted && available, __ATOMIC_RELAXED);
    return wanted && available;
}

static void compress(uint32_t state[8], const unsigned char *data, size_t blocks)
{
    int extensions = __atomic_load_n(&use_extensions, __ATOMIC_RELAXED);
    if (extensions < 0) {
        extensions = cairn_sha256_use_cpu_extensions(1);
    }
#if CAIRN_HAVE_SHANI
    if (extensions) {
        compress_shani(state, data, blocks);
        return;
    }
#endif
    for (; blocks > 0; blocks--, data += 64) {
        compress_portable(state, data);
    }
}

void cairn_sha256_init(cairn_sha256_ctx *ctx)
{
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(ctx->state, initial, sizeof(initial));
    ctx->length = 0;
    ctx->used = 0;
}

void cairn_sha256_update(cairn_sha256_ctx *ctx, const void *data, size_t len)
{
    const unsigned char *p = data;
    ctx->length += len;
    if (ctx->used > 0) {
        size_t take = 64 - ctx->used < len ? 64 - ctx->used : len;
        memcpy(ctx->block + ctx->used, p, take);
        ctx->used += take;
        p += take;
        len -= take;
        if (ctx->used < 64) {
            return;
        }
        compress(ctx->state, ctx->block, 1);
        ctx->used = 0;
    }
    if (len >= 64) {
        compress(ctx->state, p, len / 64);
        p += len / 64 * 64;
        len %= 64;
    }
    memcpy(ctx->block, p, len);
    ctx->used = len;
}

void cairn_sha256_final(cairn_sha256_ctx *ctx, unsigned char digest[32])
{
    uint64_t bits = ctx->length * 8;
    ctx->block[ctx->used++] = 0x80;
    if (ctx->used > 56) {
        memset(ctx->block + ctx->used, 0, 64 - ctx->used);
        compress(ctx->state, ctx->block, 1);
        ctx->used = 0;
    }
    memset(ctx->block + ctx->used, 0, 56 - ctx->used);
    for (int i = 0; i < 8; i++) {
        ctx->block[56 + i] = (unsigned char) (bits >> (56 - 8 * i));
    }
    compress(ctx->state, ctx->block, 1);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (unsigned char) (ctx->state[i] >> 24);
        digest[4 * i + 1] = (unsigned char) (ctx->state[i] >> 16);
        digest[4 * i + 2] = (unsigned char) (ctx->state[i] >> 8);
        digest[4 * i + 3] = (unsigned char) ctx->state[i];
    }
    memset(ctx, 0, sizeof(*ctx));
}

void cairn_sha256(const void *data, size_t len, unsigned char digest[32])
{
    cairn_sha256_ctx ctx;
    cairn_sha256_init(&ctx);
    cairn_sha256_update(&ctx, data, len);
    cairn_sha256_final(&ctx, digest);
}

void cairn_hmac_sha256_prepare(cairn_hmac_key *prepared, const unsigned char *key, size_t key_len)
{
    unsigned char block[64] = {0};
    if (key_len > 64) {
        cairn_sha256(key, key_len, block);
    } else {
        memcpy(block, key, key_len);
    }
    unsigned char pad[64];
    for (int i = 0; i < 64; i++) {
        pad[i] = block[i] ^ 0x36;
    }
    cairn_sha256_init(&prepared->inner);
    cairn_sha256_update(&prepared->inner, pad, 64);
    for (int i = 0; i < 64; i++) {
        pad[i] = block[i] ^ 0x5c;
    }
    cairn_sha256_init(&prepared->outer);
    cairn_sha256_update(&prepared->outer, pad, 64);
    memset(block, 0, sizeof(block));
    memset(pad, 0, sizeof(pad));
}

void cairn_hmac_sha256_prepared(const cairn_hmac_key *prepared, const void *msg, size_t msg_len,
                                unsigned char mac[32])
{
    unsigned char inner[32];
    cairn_sha256_ctx ctx = prepared->inner;
    cairn_sha256_update(&ctx, msg, msg_len);
    cairn_sha256_final(&ctx, inner);
    ctx = prepared->outer;
    cairn_sha256_update(&ctx, inner, 32);
    cairn_sha256_final(&ctx, mac);
}

void cairn_hmac_sha256(const unsigned char *key, size_t key_len, const void *msg, size_t msg_len,
                       unsigned char mac[32])
{
    cairn_hmac_key prepared;
    cairn_hmac_sha256_prepare(&prepared, key, key_len);
    cairn_hmac_sha256_prepared(&prepared, msg, msg_len, mac);
    memset(&prepared, 0, sizeof(prepared));
}

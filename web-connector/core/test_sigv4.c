/*
 * Unit tests of the SigV4 core. The signatures are AWS's published examples for S3
 * ("Signature Calculations for the Authorization Header": examplebucket, 20130524) and the
 * signing-key derivation example; the rest follows the documented algorithm case by case.
 */
#include "cairn_sha256.h"
#include "cairn_sigv4.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (cond) {                                                                       \
            passed++;                                                                     \
        } else {                                                                          \
            failed++;                                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                           \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
        }                                                                                 \
    } while (0)

#define CHECK_STR(actual, expected) \
    CHECK(strcmp((actual), (expected)) == 0, "got \"%s\", want \"%s\"", (actual), (expected))

static const char *EXAMPLE_ACCESS = "AKIAIOSFODNN7EXAMPLE";
static const char *EXAMPLE_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

static void hex(const unsigned char *in, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        sprintf(out + 2 * i, "%02x", in[i]);
    }
}

static cairn_signer example_signer(void)
{
    cairn_credentials c;
    strcpy(c.access_key, EXAMPLE_ACCESS);
    strcpy(c.secret_key, EXAMPLE_SECRET);
    cairn_signer s;
    cairn_signer_init(&s, &c, "us-east-1", "s3");
    return s;
}

static void expect_signature(const cairn_request *req, const char *signed_headers, const char *signature)
{
    cairn_signer s = example_signer();
    char auth[1024], expected[1024];
    long n = cairn_sign(&s, req, auth, sizeof(auth));
    snprintf(expected, sizeof(expected),
             "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
             "SignedHeaders=%s, Signature=%s", signed_headers, signature);
    CHECK(n == (long) strlen(expected), "length %ld", n);
    CHECK_STR(auth, expected);
    cairn_signer_destroy(&s);
}

static void expect_digest(const unsigned char digest[32], const char *expected)
{
    char out[65];
    hex(digest, 32, out);
    CHECK_STR(out, expected);
}

/* FIPS 180-4 examples and RFC 4231 test cases 1, 2 and 6 (a key longer than a block). */
static void test_sha256_and_hmac(void)
{
    unsigned char d[32];
    cairn_sha256("abc", 3, d);
    expect_digest(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    cairn_sha256("", 0, d);
    expect_digest(d, CAIRN_EMPTY_SHA256);
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    cairn_sha256(two_blocks, strlen(two_blocks), d);
    expect_digest(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    cairn_sha256_ctx ctx;
    cairn_sha256_init(&ctx);
    char as[1001];
    memset(as, 'a', sizeof(as));
    for (int i = 0; i < 1000; i++) {
        cairn_sha256_update(&ctx, as, i % 2 ? 999 : 1001); /* a million, in uneven pieces */
    }
    cairn_sha256_final(&ctx, d);
    expect_digest(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    unsigned char key1[20];
    memset(key1, 0x0b, sizeof(key1));
    cairn_hmac_sha256(key1, 20, "Hi There", 8, d);
    expect_digest(d, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    cairn_hmac_sha256((const unsigned char *) "Jefe", 4, "what do ya want for nothing?", 28, d);
    expect_digest(d, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    unsigned char key6[131];
    memset(key6, 0xaa, sizeof(key6));
    const char *msg6 = "Test Using Larger Than Block-Size Key - Hash Key First";
    cairn_hmac_sha256(key6, sizeof(key6), msg6, strlen(msg6), d);
    expect_digest(d, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

/*
 * The CPU's SHA instructions (where present) and the portable rounds give the same digests, at
 * every length around the block and padding boundaries, in one update or in uneven pieces.
 */
static void test_cpu_extensions_match_portable(void)
{
    unsigned char data[300];
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < sizeof(data); i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        data[i] = (unsigned char) x;
    }
    int extensions = cairn_sha256_use_cpu_extensions(1);
    printf("core: SHA-256 with the CPU's SHA instructions: %s\n", extensions ? "yes" : "no (portable only)");
    int mismatches = 0;
    for (size_t len = 0; len <= sizeof(data); len++) {
        unsigned char with[32], without[32], pieces[32];
        cairn_sha256_use_cpu_extensions(1);
        cairn_sha256(data, len, with);
        cairn_sha256_ctx ctx;
        cairn_sha256_init(&ctx);
        for (size_t at = 0; at < len; at += 37) {
            cairn_sha256_update(&ctx, data + at, len - at < 37 ? len - at : 37);
        }
        cairn_sha256_final(&ctx, pieces);
        cairn_sha256_use_cpu_extensions(0);
        cairn_sha256(data, len, without);
        mismatches += memcmp(with, without, 32) != 0 || memcmp(pieces, without, 32) != 0;
    }
    CHECK(mismatches == 0, "digests with and without the CPU's SHA instructions");
    cairn_sha256_use_cpu_extensions(0);
    test_sha256_and_hmac();
    cairn_sha256_use_cpu_extensions(1);
}

static void test_derived_key(void)
{
    unsigned char key[32];
    char out[65];
    cairn_derive_signing_key("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215", "us-east-1", "iam", key);
    hex(key, 32, out);
    CHECK_STR(out, "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d");
}

static void test_get_object_example(void)
{
    cairn_header h[] = {{"host", "examplebucket.s3.amazonaws.com"},
                        {"range", "bytes=0-9"},
                        {"x-amz-content-sha256", CAIRN_EMPTY_SHA256},
                        {"x-amz-date", "20130524T000000Z"}};
    cairn_request req = {"GET", "/test.txt", "", h, 4, CAIRN_EMPTY_SHA256, "20130524T000000Z"};
    char canonical[1024];
    cairn_canonical_request(&req, canonical, sizeof(canonical));
    char canonical_hash[65];
    cairn_sha256_hex(canonical, strlen(canonical), canonical_hash);
    CHECK_STR(canonical_hash, "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
    expect_signature(&req, "host;range;x-amz-content-sha256;x-amz-date",
                     "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

static void test_put_object_example(void)
{
    const char *payload = "Welcome to Amazon S3.";
    char payload_hash[65];
    cairn_sha256_hex(payload, strlen(payload), payload_hash);
    CHECK_STR(payload_hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    char uri[64];
    cairn_uri_encode((const unsigned char *) "/test$file.text", 15, 1, uri);
    CHECK_STR(uri, "/test%24file.text");
    cairn_header h[] = {{"date", "Fri, 24 May 2013 00:00:00 GMT"},
                        {"host", "examplebucket.s3.amazonaws.com"},
                        {"x-amz-content-sha256", payload_hash},
                        {"x-amz-date", "20130524T000000Z"},
                        {"x-amz-storage-class", "REDUCED_REDUNDANCY"}};
    cairn_request req = {"PUT", uri, "", h, 5, payload_hash, "20130524T000000Z"};
    expect_signature(&req, "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
                     "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

static void test_query_examples(void)
{
    cairn_header h[] = {{"host", "examplebucket.s3.amazonaws.com"},
                        {"x-amz-content-sha256", CAIRN_EMPTY_SHA256},
                        {"x-amz-date", "20130524T000000Z"}};
    cairn_request lifecycle = {"GET", "/", "lifecycle=", h, 3, CAIRN_EMPTY_SHA256, "20130524T000000Z"};
    expect_signature(&lifecycle, "host;x-amz-content-sha256;x-amz-date",
                     "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
    cairn_request list = {"GET", "/", "max-keys=2&prefix=J", h, 3, CAIRN_EMPTY_SHA256, "20130524T000000Z"};
    expect_signature(&list, "host;x-amz-content-sha256;x-amz-date",
                     "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

static void test_uri_encode(void)
{
    char out[256];
    const char *key = "/a b+c%[]~_-.\xc3\xa9/d//e";
    cairn_uri_encode((const unsigned char *) key, strlen(key), 1, out);
    CHECK_STR(out, "/a%20b%2Bc%25%5B%5D~_-.%C3%A9/d//e");
    cairn_uri_encode((const unsigned char *) "a/b=c&d", 7, 0, out);
    CHECK_STR(out, "a%2Fb%3Dc%26d");
    cairn_uri_encode((const unsigned char *) "AZaz09", 6, 0, out);
    CHECK_STR(out, "AZaz09");
    size_t n = cairn_uri_encode((const unsigned char *) "", 0, 1, out);
    CHECK(n == 0 && out[0] == '\0', "empty");
}

static void expect_decode(const char *in, const char *expected)
{
    unsigned char out[256];
    long n = cairn_path_decode(in, strlen(in), out);
    if (expected == NULL) {
        CHECK(n == -1, "decode(\"%s\") should fail, got %ld", in, n);
        return;
    }
    CHECK(n >= 0, "decode(\"%s\") failed", in);
    if (n >= 0) {
        out[n] = '\0';
        CHECK_STR((char *) out, expected);
    }
}

static void test_path_decode(void)
{
    expect_decode("/a%20b", "/a b");
    expect_decode("/a+b", "/a+b");
    expect_decode("/100%25", "/100%");
    expect_decode("/%5bx%5D", "/[x]");
    expect_decode("/%C3%A9", "/\xc3\xa9");
    expect_decode("/a//b/", "/a//b/");
    expect_decode("/a/.b/..c", "/a/.b/..c");
    expect_decode("/a%2", NULL);
    expect_decode("/a%", NULL);
    expect_decode("/a%zz", NULL);
    expect_decode("/a%00b", NULL);
    expect_decode("/a/../b", NULL);
    expect_decode("/a/./b", NULL);
    expect_decode("/a/%2E%2E/b", NULL);
    expect_decode("/a/..", NULL);
    expect_decode("/a%2Fb", "/a/b");
    expect_decode("/a%2F.b%2f..c", "/a/.b/..c");
    expect_decode("/pre/..%2Fb", NULL);
    expect_decode("/a%2F..%2Fb", NULL);
    expect_decode("/a/b%2F.", NULL);
}

static void test_amz_date(void)
{
    char out[CAIRN_AMZ_DATE_LEN + 1];
    cairn_format_amz_date(0, out);
    CHECK_STR(out, "19700101T000000Z");
    cairn_format_amz_date(1369353600, out);
    CHECK_STR(out, "20130524T000000Z");
    cairn_format_amz_date(1369353600 - 1, out);
    CHECK_STR(out, "20130523T235959Z");
    /* the same second twice, then the next: each call says its own second */
    cairn_format_amz_date(1369353600 - 1, out);
    CHECK_STR(out, "20130523T235959Z");
    cairn_format_amz_date(1369353600, out);
    CHECK_STR(out, "20130524T000000Z");
    cairn_format_amz_date(1369353600 + 86400, out);
    CHECK_STR(out, "20130525T000000Z");
}

static void test_header_values_are_trimmed_and_collapsed(void)
{
    cairn_header h[] = {{"host", "h"}, {"x-amz-meta-a", "  one   two \t three  "}};
    cairn_request req = {"PUT", "/k", "", h, 2, CAIRN_UNSIGNED_PAYLOAD, "20130524T000000Z"};
    char out[512];
    cairn_canonical_request(&req, out, sizeof(out));
    CHECK_STR(out, "PUT\n/k\n\nhost:h\nx-amz-meta-a:one two three\n\nhost;x-amz-meta-a\nUNSIGNED-PAYLOAD");
    /* a lone tab is a space too; single spaces stay as they are */
    cairn_header tab[] = {{"host", "h"}, {"x-amz-meta-a", "one\ttwo three "}};
    req.headers = tab;
    cairn_canonical_request(&req, out, sizeof(out));
    CHECK_STR(out, "PUT\n/k\n\nhost:h\nx-amz-meta-a:one two three\n\nhost;x-amz-meta-a\nUNSIGNED-PAYLOAD");
}

static void test_small_buffers_fail_cleanly(void)
{
    cairn_signer s = example_signer();
    cairn_header h[] = {{"host", "h"}};
    cairn_request req = {"GET", "/k", "", h, 1, CAIRN_EMPTY_SHA256, "20130524T000000Z"};
    char out[40];
    CHECK(cairn_sign(&s, &req, out, sizeof(out)) == -1, "small output buffer");
    cairn_request bad_date = {"GET", "/k", "", h, 1, CAIRN_EMPTY_SHA256, "20130524"};
    char big[512];
    CHECK(cairn_sign(&s, &bad_date, big, sizeof(big)) == -1, "short date");
    cairn_signer_destroy(&s);
}

static void test_long_key_signs(void)
{
    static char uri[20000];
    memset(uri, 'k', sizeof(uri) - 1);
    uri[0] = '/';
    cairn_signer s = example_signer();
    cairn_header h[] = {{"host", "h"}};
    cairn_request req = {"GET", uri, "", h, 1, CAIRN_EMPTY_SHA256, "20130524T000000Z"};
    char out[512];
    CHECK(cairn_sign(&s, &req, out, sizeof(out)) > 0, "a 20 KB path signs");
    cairn_signer_destroy(&s);
}

static void test_key_is_derived_once_per_date(void)
{
    cairn_signer s = example_signer();
    unsigned char key[32], expected[32];
    cairn_signer_key(&s, "20130524", key);
    cairn_signer_key(&s, "20130524", key);
    CHECK(s.derivations == 1, "derivations %lu", s.derivations);
    cairn_derive_signing_key(EXAMPLE_SECRET, "20130524", "us-east-1", "s3", expected);
    CHECK(memcmp(key, expected, 32) == 0, "cached key of 20130524");
    cairn_signer_key(&s, "20130525", key);
    CHECK(s.derivations == 2, "derivations after midnight %lu", s.derivations);
    cairn_derive_signing_key(EXAMPLE_SECRET, "20130525", "us-east-1", "s3", expected);
    CHECK(memcmp(key, expected, 32) == 0, "rotated key of 20130525");
    cairn_signer_destroy(&s);
}

typedef struct {
    cairn_signer *signer;
    int mismatches;
} race_arg;

static void *race(void *p)
{
    race_arg *a = p;
    const char *dates[] = {"20130524", "20130525"};
    unsigned char expected[2][32];
    for (int d = 0; d < 2; d++) {
        cairn_derive_signing_key(EXAMPLE_SECRET, dates[d], "us-east-1", "s3", expected[d]);
    }
    for (int i = 0; i < 2000; i++) {
        unsigned char key[32];
        int d = (i / 7) % 2;
        cairn_signer_key(a->signer, dates[d], key);
        a->mismatches += memcmp(key, expected[d], 32) != 0;
    }
    return NULL;
}

static void test_rotation_is_atomic_across_threads(void)
{
    cairn_signer s = example_signer();
    pthread_t threads[4];
    race_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (race_arg) {&s, 0};
        pthread_create(&threads[i], NULL, race, &args[i]);
    }
    int mismatches = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        mismatches += args[i].mismatches;
    }
    CHECK(mismatches == 0, "%d keys of the wrong date", mismatches);
    cairn_signer_destroy(&s);
}

static const char *write_temp(const char *text)
{
    static char path[64];
    strcpy(path, "/tmp/cairn-core-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t) strlen(text)) {
        perror("temp file");
        exit(2);
    }
    close(fd);
    return path;
}

static void test_credentials_file(void)
{
    cairn_credentials c;
    char err[256];
    const char *path = write_temp("# web tier\n\naccess_key = AK1\nsecret_key=s/e+c=ret \n");
    CHECK(cairn_credentials_load(path, &c, err, sizeof(err)) == 0, "load: %s", err);
    CHECK_STR(c.access_key, "AK1");
    CHECK_STR(c.secret_key, "s/e+c=ret");
    unlink(path);
    path = write_temp("access_key = AK1\n");
    CHECK(cairn_credentials_load(path, &c, err, sizeof(err)) == -1, "missing secret");
    CHECK(strstr(err, "needs both") != NULL, "message: %s", err);
    unlink(path);
    path = write_temp("access_key = AK1\nsecret = x\n");
    CHECK(cairn_credentials_load(path, &c, err, sizeof(err)) == -1, "unknown name");
    unlink(path);
    CHECK(cairn_credentials_load("/nonexistent/cairn", &c, err, sizeof(err)) == -1, "missing file");
}

static void test_clock(void)
{
    time_t now = time(NULL);
    time_t t = cairn_now();
#ifdef CAIRN_TEST_CLOCK
    const char *path = write_temp("1369353599\n");
    setenv("CAIRN_TEST_CLOCK_FILE", path, 1);
    CHECK(cairn_now() == 1369353599, "test clock");
    unsetenv("CAIRN_TEST_CLOCK_FILE");
    unlink(path);
#endif
    CHECK(t >= now && t - now < 5, "clock");
}

int main(void)
{
    test_sha256_and_hmac();
    test_cpu_extensions_match_portable();
    test_derived_key();
    test_get_object_example();
    test_put_object_example();
    test_query_examples();
    test_uri_encode();
    test_path_decode();
    test_amz_date();
    test_header_values_are_trimmed_and_collapsed();
    test_small_buffers_fail_cleanly();
    test_long_key_signs();
    test_key_is_derived_once_per_date();
    test_rotation_is_atomic_across_threads();
    test_credentials_file();
    test_clock();
    printf("core: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

/*
 * Cairn web connector core: AWS Signature Version 4 for S3, as the nginx and Apache modules use
 * it. Pure CPU work, no I/O (except the test clock), safe to call from an event loop or from
 * several threads.
 */
#ifndef CAIRN_SIGV4_H
#define CAIRN_SIGV4_H

#include <pthread.h>
#include <stddef.h>
#include <time.h>

#include "cairn_sha256.h"

#define CAIRN_SHA256_HEX_LEN 64
#define CAIRN_AMZ_DATE_LEN 16 /* 20130524T000000Z */
#define CAIRN_SCOPE_DATE_LEN 8
#define CAIRN_MAX_FIELD 128   /* access key, region, service */
#define CAIRN_MAX_SECRET 256

/* The SHA-256 of the empty string: the payload hash of a GET or HEAD. */
#define CAIRN_EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define CAIRN_UNSIGNED_PAYLOAD "UNSIGNED-PAYLOAD"

typedef struct {
    char access_key[CAIRN_MAX_FIELD];
    char secret_key[CAIRN_MAX_SECRET];
} cairn_credentials;

/*
 * The signing key of one UTC date for one secret, region and service. It is derived once per
 * date and replaced as a whole under the lock, so a reader never pairs one date's scope with
 * another date's key.
 */
typedef struct {
    pthread_mutex_t lock;
    char date[CAIRN_SCOPE_DATE_LEN + 1]; /* "" until the first derivation */
    unsigned char key[32];
    cairn_hmac_key prepared;             /* key's HMAC states, what signing uses */
    char region[CAIRN_MAX_FIELD];
    char service[CAIRN_MAX_FIELD];
    cairn_credentials credentials;
    unsigned long derivations; /* how many keys were derived: tests check it is once per date */
} cairn_signer;

typedef struct {
    const char *name;  /* lowercase */
    const char *value; /* as sent; trimmed and inner spaces collapsed when canonicalised */
} cairn_header;

typedef struct {
    const char *method;
    const char *canonical_uri;   /* already URI-encoded: exactly the path that is sent */
    const char *canonical_query; /* already canonical ("" for none) */
    const cairn_header *headers; /* every signed header, sorted by name, names unique */
    size_t header_count;
    const char *payload_hash;    /* hex SHA-256 or CAIRN_UNSIGNED_PAYLOAD */
    const char *amz_date;        /* CAIRN_AMZ_DATE_LEN characters */
} cairn_request;

/* Hex SHA-256 of data into out (CAIRN_SHA256_HEX_LEN + 1 bytes). */
void cairn_sha256_hex(const void *data, size_t len, char *out);

/* kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request"). */
void cairn_derive_signing_key(const char *secret, const char *date, const char *region,
                              const char *service, unsigned char key[32]);

/*
 * SigV4 URI encoding of len bytes: every byte but A-Z a-z 0-9 - _ . ~ (and / when keep_slash)
 * becomes %XX with uppercase hex. out holds at least 3 * len + 1 bytes; returns the length.
 */
size_t cairn_uri_encode(const unsigned char *in, size_t len, int keep_slash, char *out);

/*
 * Decodes the %XX escapes of a request path (a '+' stays a '+'). out holds at least len bytes.
 * Returns the decoded length, or -1 for a malformed escape, an encoded NUL or a "." or ".."
 * segment (which the web server would have resolved in its own view of the path), segments
 * being delimited by '/' and by "%2F" alike.
 */
long cairn_path_decode(const char *in, size_t len, unsigned char *out);

/* The time to sign with: the clock, or in a test build the file named by CAIRN_TEST_CLOCK_FILE. */
time_t cairn_now(void);

/* "YYYYMMDDTHHMMSSZ" of t in UTC into out (CAIRN_AMZ_DATE_LEN + 1 bytes). */
void cairn_format_amz_date(time_t t, char *out);

/*
 * Reads a credentials file: lines "access_key = ..." and "secret_key = ...", '#' comments and
 * blank lines allowed. Returns 0, or -1 with a message in err.
 */
int cairn_credentials_load(const char *path, cairn_credentials *out, char *err, size_t err_len);

int cairn_signer_init(cairn_signer *s, const cairn_credentials *c, const char *region,
                      const char *service);
void cairn_signer_destroy(cairn_signer *s);

/* The signing key of scope date `date` (YYYYMMDD), derived only when the date changed. */
void cairn_signer_key(cairn_signer *s, const char *date, unsigned char key[32]);

/*
 * Writes the whole Authorization header value of req into out. Returns its length, or -1 when
 * out (of out_len bytes) is too small or a field is too long.
 */
long cairn_sign(cairn_signer *s, const cairn_request *req, char *out, size_t out_len);

/* The canonical request (for tests and debugging); same contract as cairn_sign. */
long cairn_canonical_request(const cairn_request *req, char *out, size_t out_len);

#endif

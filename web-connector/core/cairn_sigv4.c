#include "cairn_sigv4.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn_sha256.h"

static const char HEX_LOWER[] = "0123456789abcdef";
static const char HEX_UPPER[] = "0123456789ABCDEF";

static void to_hex(const unsigned char *in, size_t len, char *out)
{
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = HEX_LOWER[in[i] >> 4];
        out[2 * i + 1] = HEX_LOWER[in[i] & 0xf];
    }
    out[2 * len] = '\0';
}

void cairn_sha256_hex(const void *data, size_t len, char *out)
{
    unsigned char digest[32];
    cairn_sha256(data, len, digest);
    to_hex(digest, sizeof(digest), out);
}

static void hmac(const unsigned char *key, size_t key_len, const char *msg, size_t msg_len,
                 unsigned char out[32])
{
    cairn_hmac_sha256(key, key_len, msg, msg_len, out);
}

void cairn_derive_signing_key(const char *secret, const char *date, const char *region,
                              const char *service, unsigned char key[32])
{
    char seed[4 + CAIRN_MAX_SECRET];
    size_t secret_len = strnlen(secret, CAIRN_MAX_SECRET - 1);
    memcpy(seed, "AWS4", 4);
    memcpy(seed + 4, secret, secret_len);
    unsigned char k_date[32], k_region[32], k_service[32];
    hmac((unsigned char *) seed, 4 + secret_len, date, strlen(date), k_date);
    hmac(k_date, 32, region, strlen(region), k_region);
    hmac(k_region, 32, service, strlen(service), k_service);
    hmac(k_service, 32, "aws4_request", 12, key);
    memset(seed, 0, sizeof(seed));
}

static int is_unreserved(unsigned char c)
{
    return isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~';
}

size_t cairn_uri_encode(const unsigned char *in, size_t len, int keep_slash, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = in[i];
        if ((c < 0x80 && is_unreserved(c)) || (keep_slash && c == '/')) {
            out[n++] = (char) c;
        } else {
            out[n++] = '%';
            out[n++] = HEX_UPPER[c >> 4];
            out[n++] = HEX_UPPER[c & 0xf];
        }
    }
    out[n] = '\0';
    return n;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

static int is_dot_segment(const unsigned char *seg, size_t len)
{
    return (len == 1 && seg[0] == '.') || (len == 2 && seg[0] == '.' && seg[1] == '.');
}

long cairn_path_decode(const char *in, size_t len, unsigned char *out)
{
    size_t n = 0;
    size_t segment_start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) in[i];
        if (c == '%') {
            if (i + 2 >= len) {
                return -1;
            }
            int hi = hex_value(in[i + 1]);
            int lo = hex_value(in[i + 2]);
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                return -1;
            }
            c = (unsigned char) (hi << 4 | lo);
            i += 2;
        }
        /* an encoded '/' ends a segment too: the key it makes is split there as well */
        if (c == '/') {
            if (is_dot_segment(out + segment_start, n - segment_start)) {
                return -1;
            }
            out[n++] = c;
            segment_start = n;
            continue;
        }
        out[n++] = c;
    }
    if (is_dot_segment(out + segment_start, n - segment_start)) {
        return -1;
    }
    return (long) n;
}

time_t cairn_now(void)
{
#ifdef CAIRN_TEST_CLOCK
    const char *path = getenv("CAIRN_TEST_CLOCK_FILE");
    if (path != NULL) {
        FILE *f = fopen(path, "r");
        if (f != NULL) {
            long long t = 0;
            int ok = fscanf(f, "%lld", &t) == 1;
            fclose(f);
            if (ok) {
                return (time_t) t;
            }
        }
    }
#endif
    return time(NULL);
}

/* Formatted once per second and thread: a busy server signs many requests in each second. */
static __thread struct {
    int valid;
    time_t t;
    char text[CAIRN_AMZ_DATE_LEN + 1];
} last_amz_date;

void cairn_format_amz_date(time_t t, char *out)
{
    if (!last_amz_date.valid || last_amz_date.t != t) {
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(last_amz_date.text, CAIRN_AMZ_DATE_LEN + 1, "%Y%m%dT%H%M%SZ", &tm);
        last_amz_date.t = t;
        last_amz_date.valid = 1;
    }
    memcpy(out, last_amz_date.text, CAIRN_AMZ_DATE_LEN + 1);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') {
        s++;
    }
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char) s[len - 1])) {
        s[--len] = '\0';
    }
    return s;
}

int cairn_credentials_load(const char *path, cairn_credentials *out, char *err, size_t err_len)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(err, err_len, "cannot open credentials file \"%s\": %s", path, strerror(errno));
        return -1;
    }
    memset(out, 0, sizeof(*out));
    char line[1024];
    int line_no = 0;
    int rc = 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        line_no++;
        char *text = trim(line);
        if (*text == '\0' || *text == '#') {
            continue;
        }
        char *eq = strchr(text, '=');
        if (eq == NULL) {
            snprintf(err, err_len, "%s:%d: expected \"name = value\"", path, line_no);
            rc = -1;
            break;
        }
        *eq = '\0';
        char *name = trim(text);
        char *value = trim(eq + 1);
        if (strcmp(name, "access_key") == 0 && strlen(value) < sizeof(out->access_key)) {
            strcpy(out->access_key, value);
        } else if (strcmp(name, "secret_key") == 0 && strlen(value) < sizeof(out->secret_key)) {
            strcpy(out->secret_key, value);
        } else {
            snprintf(err, err_len, "%s:%d: unknown name \"%s\" or value too long", path, line_no, name);
            rc = -1;
            break;
        }
    }
    fclose(f);
    memset(line, 0, sizeof(line));
    if (rc == 0 && (out->access_key[0] == '\0' || out->secret_key[0] == '\0')) {
        snprintf(err, err_len, "%s: needs both access_key and secret_key", path);
        rc = -1;
    }
    if (rc != 0) {
        memset(out, 0, sizeof(*out));
    }
    return rc;
}

int cairn_signer_init(cairn_signer *s, const cairn_credentials *c, const char *region,
                      const char *service)
{
    memset(s, 0, sizeof(*s));
    if (strlen(region) >= sizeof(s->region) || strlen(service) >= sizeof(s->service)) {
        return -1;
    }
    strcpy(s->region, region);
    strcpy(s->service, service);
    s->credentials = *c;
    return pthread_mutex_init(&s->lock, NULL) == 0 ? 0 : -1;
}

void cairn_signer_destroy(cairn_signer *s)
{
    pthread_mutex_destroy(&s->lock);
    memset(s, 0, sizeof(*s));
}

/* Derives the date's key when the date changed; the caller holds the lock. */
static void signer_rotate(cairn_signer *s, const char *date)
{
    if (memcmp(s->date, date, CAIRN_SCOPE_DATE_LEN) != 0) {
        char scope_date[CAIRN_SCOPE_DATE_LEN + 1];
        memcpy(scope_date, date, CAIRN_SCOPE_DATE_LEN);
        scope_date[CAIRN_SCOPE_DATE_LEN] = '\0';
        cairn_derive_signing_key(s->credentials.secret_key, scope_date, s->region, s->service, s->key);
        cairn_hmac_sha256_prepare(&s->prepared, s->key, sizeof(s->key));
        memcpy(s->date, scope_date, sizeof(scope_date));
        s->derivations++;
    }
}

void cairn_signer_key(cairn_signer *s, const char *date, unsigned char key[32])
{
    pthread_mutex_lock(&s->lock);
    signer_rotate(s, date);
    memcpy(key, s->key, 32);
    pthread_mutex_unlock(&s->lock);
}

static void signer_prepared_key(cairn_signer *s, const char *date, cairn_hmac_key *out)
{
    pthread_mutex_lock(&s->lock);
    signer_rotate(s, date);
    *out = s->prepared;
    pthread_mutex_unlock(&s->lock);
}

typedef struct {
    char *buf;
    size_t len;
    size_t cap;
    int overflow;
} builder;

static void put(builder *b, const char *s, size_t n)
{
    if (b->overflow || b->len + n >= b->cap) {
        b->overflow = 1;
        return;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

static void puts_(builder *b, const char *s)
{
    put(b, s, strlen(s));
}

static int needs_collapsing(const char *v, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (v[i] == '\t' || (v[i] == ' ' && i + 1 < len && v[i + 1] == ' ')) {
            return 1;
        }
    }
    return 0;
}

/* SigV4's header value form: outer whitespace trimmed, inner runs collapsed to one space. */
static void put_trimmed_collapsed(builder *b, const char *v)
{
    while (*v == ' ' || *v == '\t') {
        v++;
    }
    size_t end = strlen(v);
    while (end > 0 && (v[end - 1] == ' ' || v[end - 1] == '\t')) {
        end--;
    }
    if (!needs_collapsing(v, end)) {
        put(b, v, end); /* the usual value: nothing to collapse */
        return;
    }
    int previous_space = 0;
    for (size_t i = 0; i < end; i++) {
        int space = v[i] == ' ' || v[i] == '\t';
        if (space && previous_space) {
            continue;
        }
        put(b, space ? " " : &v[i], 1);
        previous_space = space;
    }
}

static void put_signed_headers(builder *b, const cairn_request *req)
{
    for (size_t i = 0; i < req->header_count; i++) {
        if (i > 0) {
            put(b, ";", 1);
        }
        puts_(b, req->headers[i].name);
    }
}

long cairn_canonical_request(const cairn_request *req, char *out, size_t out_len)
{
    builder b = {out, 0, out_len, out_len == 0};
    if (out_len > 0) {
        out[0] = '\0';
    }
    puts_(&b, req->method);
    put(&b, "\n", 1);
    puts_(&b, req->canonical_uri);
    put(&b, "\n", 1);
    puts_(&b, req->canonical_query);
    put(&b, "\n", 1);
    for (size_t i = 0; i < req->header_count; i++) {
        puts_(&b, req->headers[i].name);
        put(&b, ":", 1);
        put_trimmed_collapsed(&b, req->headers[i].value);
        put(&b, "\n", 1);
    }
    put(&b, "\n", 1);
    put_signed_headers(&b, req);
    put(&b, "\n", 1);
    puts_(&b, req->payload_hash);
    return b.overflow ? -1 : (long) b.len;
}

long cairn_sign(cairn_signer *s, const cairn_request *req, char *out, size_t out_len)
{
    if (strlen(req->amz_date) != CAIRN_AMZ_DATE_LEN) {
        return -1;
    }
    char stack_buf[4096];
    size_t canonical_cap = sizeof(stack_buf);
    char *canonical = stack_buf;
    long canonical_len = cairn_canonical_request(req, canonical, canonical_cap);
    char *heap_buf = NULL;
    if (canonical_len < 0) {
        /* long keys: size the buffer once and build again */
        canonical_cap = 64 * 1024;
        heap_buf = malloc(canonical_cap);
        if (heap_buf == NULL) {
            return -1;
        }
        canonical = heap_buf;
        canonical_len = cairn_canonical_request(req, canonical, canonical_cap);
        if (canonical_len < 0) {
            free(heap_buf);
            return -1;
        }
    }
    char canonical_hash[CAIRN_SHA256_HEX_LEN + 1];
    cairn_sha256_hex(canonical, (size_t) canonical_len, canonical_hash);
    free(heap_buf);

    char date[CAIRN_SCOPE_DATE_LEN + 1];
    memcpy(date, req->amz_date, CAIRN_SCOPE_DATE_LEN);
    date[CAIRN_SCOPE_DATE_LEN] = '\0';
    char scope[3 * CAIRN_MAX_FIELD];
    builder sb = {scope, 0, sizeof(scope), 0};
    put(&sb, date, CAIRN_SCOPE_DATE_LEN);
    put(&sb, "/", 1);
    puts_(&sb, s->region);
    put(&sb, "/", 1);
    puts_(&sb, s->service);
    put(&sb, "/aws4_request", 13);
    char string_to_sign[512];
    builder tb = {string_to_sign, 0, sizeof(string_to_sign), 0};
    put(&tb, "AWS4-HMAC-SHA256\n", 17);
    put(&tb, req->amz_date, CAIRN_AMZ_DATE_LEN);
    put(&tb, "\n", 1);
    put(&tb, scope, sb.len);
    put(&tb, "\n", 1);
    put(&tb, canonical_hash, CAIRN_SHA256_HEX_LEN);
    if (sb.overflow || tb.overflow) {
        return -1;
    }
    size_t scope_len = sb.len, sts_len = tb.len;
    cairn_hmac_key key;
    unsigned char signature[32];
    signer_prepared_key(s, date, &key);
    cairn_hmac_sha256_prepared(&key, string_to_sign, sts_len, signature);
    memset(&key, 0, sizeof(key));
    char signature_hex[65];
    to_hex(signature, sizeof(signature), signature_hex);

    builder b = {out, 0, out_len, out_len == 0};
    puts_(&b, "AWS4-HMAC-SHA256 Credential=");
    puts_(&b, s->credentials.access_key);
    put(&b, "/", 1);
    put(&b, scope, scope_len);
    puts_(&b, ", SignedHeaders=");
    put_signed_headers(&b, req);
    puts_(&b, ", Signature=");
    puts_(&b, signature_hex);
    return b.overflow ? -1 : (long) b.len;
}

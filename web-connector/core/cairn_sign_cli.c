/*
 * cairn-sign: prints the Authorization header the core computes for one request, so that tests
 * can send it to a real service and check it against the service's own verifier.
 *   cairn-sign METHOD ENCODED_PATH AMZ_DATE ACCESS_KEY SECRET_KEY PAYLOAD_HASH name:value...
 * The name:value pairs are the signed headers, lowercase, in any order.
 */
#include "cairn_sigv4.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b)
{
    return strcmp(((const cairn_header *) a)->name, ((const cairn_header *) b)->name);
}

int main(int argc, char **argv)
{
    if (argc < 8) {
        fprintf(stderr, "usage: %s METHOD PATH AMZ_DATE ACCESS SECRET PAYLOAD_HASH name:value...\n", argv[0]);
        return 2;
    }
    cairn_credentials c;
    if (strlen(argv[4]) >= sizeof(c.access_key) || strlen(argv[5]) >= sizeof(c.secret_key)) {
        fprintf(stderr, "key too long\n");
        return 2;
    }
    strcpy(c.access_key, argv[4]);
    strcpy(c.secret_key, argv[5]);
    size_t count = (size_t) argc - 7;
    cairn_header *headers = calloc(count, sizeof(*headers));
    if (headers == NULL) {
        return 2;
    }
    for (size_t i = 0; i < count; i++) {
        char *colon = strchr(argv[7 + i], ':');
        if (colon == NULL) {
            fprintf(stderr, "header \"%s\" is not name:value\n", argv[7 + i]);
            return 2;
        }
        *colon = '\0';
        headers[i] = (cairn_header) {argv[7 + i], colon + 1};
    }
    qsort(headers, count, sizeof(*headers), by_name);
    cairn_signer s;
    if (cairn_signer_init(&s, &c, "us-east-1", "s3") != 0) {
        return 2;
    }
    cairn_request req = {argv[1], argv[2], "", headers, count, argv[6], argv[3]};
    char out[4096];
    long n = cairn_sign(&s, &req, out, sizeof(out));
    cairn_signer_destroy(&s);
    free(headers);
    if (n < 0) {
        fprintf(stderr, "cannot sign\n");
        return 1;
    }
    puts(out);
    return 0;
}

/*
 * bench-sign: the CPU time of signing one GET as the modules do (three signed headers), the
 * median of 9 batches, with the CPU's SHA instructions and with the portable rounds.
 *   bench-sign [SIGNATURES_PER_BATCH]   (default 200000)
 */
#include "cairn_sigv4.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCHES 9

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double) t.tv_sec + (double) t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long per_batch = argc > 1 ? atol(argv[1]) : 200000;
    if (per_batch <= 0) {
        fprintf(stderr, "usage: %s [SIGNATURES_PER_BATCH]\n", argv[0]);
        return 2;
    }
    cairn_credentials c;
    strcpy(c.access_key, "AKIAIOSFODNN7EXAMPLE");
    strcpy(c.secret_key, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    cairn_signer s;
    if (cairn_signer_init(&s, &c, "us-east-1", "s3") != 0) {
        return 1;
    }
    char date[CAIRN_AMZ_DATE_LEN + 1];
    cairn_format_amz_date(time(NULL), date);
    cairn_header headers[] = {{"host", "cairn"}, {"x-amz-content-sha256", CAIRN_EMPTY_SHA256}, {"x-amz-date", date}};
    cairn_request req = {"GET", "/priv/img/0001.jpg", "", headers, 3, CAIRN_EMPTY_SHA256, date};
    char out[1024];
    double us[2][BATCHES];
    int available = cairn_sha256_use_cpu_extensions(1);
    for (int batch = 0; batch < BATCHES; batch++) {
        for (int extensions = 0; extensions < 2; extensions++) { /* alternated: load hits both alike */
            cairn_sha256_use_cpu_extensions(extensions);
            double start = cpu_seconds();
            for (long i = 0; i < per_batch; i++) {
                if (cairn_sign(&s, &req, out, sizeof(out)) < 0) {
                    return 1;
                }
            }
            us[extensions][batch] = (cpu_seconds() - start) * 1e6 / (double) per_batch;
        }
    }
    for (int extensions = 1; extensions >= 0; extensions--) {
        if (extensions && !available) {
            printf("cairn_sign GET, CPU SHA instructions: not available on this CPU\n");
            continue;
        }
        qsort(us[extensions], BATCHES, sizeof(double), by_value);
        printf("cairn_sign GET, %s: %.3f us CPU per signature (median of %d batches of %ld)\n",
               extensions ? "CPU SHA instructions" : "portable SHA-256", us[extensions][BATCHES / 2], BATCHES,
               per_batch);
    }
    cairn_signer_destroy(&s);
    return 0;
}

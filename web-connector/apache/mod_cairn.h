/* What the two halves of mod_cairn share: the per-location configuration. */
#ifndef MOD_CAIRN_H
#define MOD_CAIRN_H

#include "httpd.h"
#include "http_config.h"
#include "util_filter.h"

#include "cairn_sigv4.h"

#define CAIRN_NOTE "cairn-request"

typedef struct {
    const char *location;     /* the <Location> prefix stripped from the path to make the key */
    const char *backend;      /* CairnPass: http://host:port */
    const char *host;         /* the Host header mod_proxy sends, which is signed */
    const char *bucket;
    const char *key_prefix;
    const char *region;
    cairn_signer *signer;     /* NULL: unsigned requests (public-read buckets) */
    int signer_set;
    int cas;                  /* -1: unset */
    int upload;
    apr_off_t upload_max_size;
    int mask_403;
} cairn_dir_conf;

extern module AP_MODULE_DECLARE_DATA cairn_module;

/* Fixups: drops client x-amz-* headers, signs, and adds the response filter. */
int cairn_fixups(request_rec *r);
/* The response filter: immutable caching of /_cas/, the optional 403 mask, Cairn's length of HEAD answers. */
apr_status_t cairn_response_filter(ap_filter_t *f, apr_bucket_brigade *bb);
/* The response filter as registered: added by handle, not looked up by name on every request. */
extern ap_filter_rec_t *cairn_response_filter_handle;
/* Error responses mod_proxy makes when Cairn cannot be reached (502) or is too slow (504), with a clear text. */
void cairn_insert_error_filter(request_rec *r);

#endif

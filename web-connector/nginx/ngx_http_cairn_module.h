/* What the two halves of ngx_http_cairn_module share: configuration, request context. */
#ifndef NGX_HTTP_CAIRN_MODULE_H
#define NGX_HTTP_CAIRN_MODULE_H

#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "cairn_sigv4.h"

#define CAIRN_MAX_SIGNED_META 32

extern ngx_module_t ngx_http_proxy_module;

typedef struct {
    ngx_str_t target;          /* cairn_pass: an upstream name or host:port */
    ngx_str_t bucket;
    ngx_str_t key_prefix;
    ngx_str_t host;            /* NUL-terminated after the merge */
    ngx_str_t region;
    ngx_str_t credentials_path;
    cairn_signer *signer;      /* NULL: requests go unsigned (public-read buckets) */
    ngx_flag_t cas;
    ngx_flag_t upload;
    off_t upload_max_size;
    ngx_flag_t mask_403;
} ngx_http_cairn_loc_conf_t;

typedef struct {
    ngx_str_t uri;             /* the encoded upstream path: exactly what is signed and sent; NUL-terminated */
    ngx_str_t amz_date;
    ngx_str_t authorization;
    ngx_table_elt_t *meta[CAIRN_MAX_SIGNED_META];
    ngx_uint_t meta_count;
    unsigned signed_:1;
} ngx_http_cairn_ctx_t;

extern ngx_module_t ngx_http_cairn_module;

/* Precontent phase: checks the request and fixes the upstream path. */
ngx_int_t ngx_http_cairn_handler(ngx_http_request_t *r);
/* Preconfiguration: the $cairn_* variables. */
ngx_int_t ngx_http_cairn_add_variables(ngx_conf_t *cf);
/* Postconfiguration: the phase handler and the header filter. */
ngx_int_t ngx_http_cairn_init(ngx_conf_t *cf);

#endif

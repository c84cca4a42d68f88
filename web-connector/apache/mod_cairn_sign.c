/*
 * mod_cairn's request signing (fixups, after every other module changed the request) and its
 * response side: immutable caching of /_cas/, the optional 403 mask, Cairn's Content-Length on
 * HEAD, and a clear 502 when Cairn cannot be reached, 504 when it answers too late.
 */
#include "mod_cairn.h"

#include <stdlib.h>

#include "apr_strings.h"
#include "http_core.h"
#include "http_log.h"
#include "http_protocol.h"
#include "http_request.h"
#include "util_filter.h"

#define CAIRN_CAS_CACHE_CONTROL "public, max-age=31536000, immutable"
#define CAIRN_MAX_SIGNED_META 32

ap_filter_rec_t *cairn_response_filter_handle;

typedef struct {
    request_rec *r;
    apr_array_header_t *drop;      /* names of headers to remove; NULL while there is none */
    cairn_header *meta;
    size_t meta_count;
    int too_many;
} header_scan;

static int scan_header(void *data, const char *key, const char *value)
{
    header_scan *scan = data;
    if (strncasecmp(key, "x-amz-", 6) == 0 || strcasecmp(key, "authorization") == 0) {
        int meta = strncasecmp(key, "x-amz-meta-", 11) == 0 && scan->r->method_number == M_PUT;
        if (!meta) {
            if (scan->drop == NULL) {
                scan->drop = apr_array_make(scan->r->pool, 4, sizeof(char *));
            }
            *(const char **) apr_array_push(scan->drop) = key;
        } else if (scan->meta_count == CAIRN_MAX_SIGNED_META) {
            scan->too_many = 1;
        } else {
            char *name = apr_pstrdup(scan->r->pool, key);
            ap_str_tolower(name);
            scan->meta[scan->meta_count++] = (cairn_header) {name, value};
        }
    }
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const cairn_header *) a)->name, ((const cairn_header *) b)->name);
}

/*
 * Client x-amz-* headers would reach Cairn unsigned (refused) or act with the module's
 * credentials (x-amz-copy-source): they are dropped, except x-amz-meta-* on uploads, which are
 * signed. mod_proxy_http sends r->headers_in, so what is signed here is what it sends.
 */
int cairn_fixups(request_rec *r)
{
    const char *path = apr_table_get(r->notes, CAIRN_NOTE);
    if (path == NULL) {
        return DECLINED;
    }
    cairn_dir_conf *c = ap_get_module_config(r->per_dir_config, &cairn_module);
    ap_add_output_filter_handle(cairn_response_filter_handle, NULL, r, r->connection);
    cairn_header headers[3 + CAIRN_MAX_SIGNED_META];
    header_scan scan = {r, NULL, headers + 3, 0, 0};
    apr_table_do(scan_header, &scan, r->headers_in, NULL);
    if (scan.too_many) {
        return HTTP_BAD_REQUEST;
    }
    for (int i = 0; scan.drop != NULL && i < scan.drop->nelts; i++) {
        apr_table_unset(r->headers_in, APR_ARRAY_IDX(scan.drop, i, const char *));
    }
    if (c->signer == NULL) {
        return OK;
    }
    char *date = apr_palloc(r->pool, CAIRN_AMZ_DATE_LEN + 1);
    cairn_format_amz_date(cairn_now(), date);
    const char *payload = r->method_number == M_PUT ? CAIRN_UNSIGNED_PAYLOAD : CAIRN_EMPTY_SHA256;
    headers[0] = (cairn_header) {"host", c->host};
    headers[1] = (cairn_header) {"x-amz-content-sha256", payload};
    headers[2] = (cairn_header) {"x-amz-date", date};
    qsort(headers + 3, scan.meta_count, sizeof(cairn_header), by_name);
    size_t names_len = 64;
    for (size_t i = 0; i < scan.meta_count; i++) {
        names_len += strlen(headers[3 + i].name) + 1;
    }
    cairn_request req = {r->method, path, "", headers, 3 + scan.meta_count, payload, date};
    size_t cap = 256 + sizeof(c->signer->credentials.access_key) + names_len;
    char *auth = apr_palloc(r->pool, cap);
    if (cairn_sign(c->signer, &req, auth, cap) < 0) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "cairn: the request cannot be signed");
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    apr_table_setn(r->headers_in, "Authorization", auth);
    apr_table_setn(r->headers_in, "X-Amz-Date", date);
    apr_table_setn(r->headers_in, "X-Amz-Content-Sha256", payload);
    return OK;
}

/* Sees the first brigade only: the response headers are not sent yet. */
apr_status_t cairn_response_filter(ap_filter_t *f, apr_bucket_brigade *bb)
{
    request_rec *r = f->r;
    cairn_dir_conf *c = ap_get_module_config(r->per_dir_config, &cairn_module);
    if (c->mask_403 > 0 && r->status == HTTP_FORBIDDEN) {
        apr_brigade_cleanup(bb);
        /*
         * httpd's own 404, answered from here while nothing went out yet, so that its page gets a
         * Content-Length. The status is cleared first: ap_die would otherwise take the 404 for an
         * error met while answering the 403 and say so on the page. The error return stops
         * mod_proxy from passing the rest of Cairn's 403.
         */
        r->status = HTTP_OK;
        ap_die(HTTP_NOT_FOUND, r);
        return AP_FILTER_ERROR;
    }
    if (c->cas > 0 && (r->status == HTTP_OK || r->status == HTTP_PARTIAL_CONTENT || r->status == HTTP_NOT_MODIFIED)) {
        apr_table_setn(r->headers_out, "Cache-Control", CAIRN_CAS_CACHE_CONTROL);
    }
    const char *length = apr_table_get(r->headers_out, "Content-Length");
    if (r->header_only && length != NULL && strcmp(length, "0") == 0) {
        /*
         * httpd's header filter drops "Content-Length: 0" from HEAD answers (for handlers that
         * answer HEAD without computing a length); Cairn's is the object's. No body follows:
         * mod_proxy passes none for a HEAD.
         */
        r->header_only = 0;
    }
    ap_remove_output_filter(f);
    return ap_pass_brigade(f->next, bb);
}

/*
 * mod_proxy answers 503 when it cannot connect, and 502 when Cairn's answer does not come within
 * the timeout; for Cairn these are a bad gateway and a gateway timeout, said plainly (the page is
 * the one of the status mod_proxy chose, hence the custom text for that one).
 */
void cairn_insert_error_filter(request_rec *r)
{
    if (apr_table_get(r->notes, CAIRN_NOTE) == NULL) {
        return;
    }
    if (r->status == HTTP_SERVICE_UNAVAILABLE) {
        ap_custom_response(r, HTTP_SERVICE_UNAVAILABLE, "Bad gateway: the Cairn service did not answer.\n");
        r->status = HTTP_BAD_GATEWAY;
        r->status_line = NULL;
    } else if (r->status == HTTP_BAD_GATEWAY && apr_table_get(r->notes, "proxy_timedout") != NULL) {
        ap_custom_response(r, HTTP_BAD_GATEWAY, "Gateway timeout: the Cairn service did not answer in time.\n");
        r->status = HTTP_GATEWAY_TIME_OUT;
        r->status_line = NULL;
    }
}

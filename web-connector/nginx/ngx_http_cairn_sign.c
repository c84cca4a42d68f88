/*
 * The $cairn_* variables that cairn_pass hands to the proxy module, the signature behind them,
 * and the header filter (immutable caching of /_cas/, the optional 403 mask).
 */
#include "ngx_http_cairn_module.h"

#define CAIRN_CAS_CACHE_CONTROL "public, max-age=31536000, immutable"

static ngx_http_output_header_filter_pt ngx_http_next_header_filter;

static char *ngx_http_cairn_cstr(ngx_pool_t *pool, u_char *data, size_t len)
{
    char *s = ngx_pnalloc(pool, len + 1);
    if (s != NULL) {
        ngx_memcpy(s, data, len);
        s[len] = '\0';
    }
    return s;
}

static int ngx_http_cairn_header_cmp(const void *a, const void *b)
{
    return ngx_strcmp(((const cairn_header *) a)->name, ((const cairn_header *) b)->name);
}

/*
 * Signs the request as the proxy module sends it: called while the proxy module builds the
 * upstream request, after a cache may have turned HEAD into GET.
 */
static ngx_int_t ngx_http_cairn_sign(ngx_http_request_t *r, ngx_http_cairn_ctx_t *ctx)
{
    if (ctx->signed_) {
        return NGX_OK;
    }
    ngx_http_cairn_loc_conf_t *lcf = ngx_http_get_module_loc_conf(r, ngx_http_cairn_module);
    ctx->signed_ = 1;
    if (lcf->signer == NULL) {
        return NGX_OK;
    }
    char *date = ngx_pnalloc(r->pool, CAIRN_AMZ_DATE_LEN + 1);
    if (date == NULL) {
        return NGX_ERROR;
    }
    cairn_format_amz_date(cairn_now(), date);
    ctx->amz_date.data = (u_char *) date;
    ctx->amz_date.len = CAIRN_AMZ_DATE_LEN;

    ngx_str_t method = r->method_name;
    if (r->upstream != NULL && r->upstream->method.len) {
        method = r->upstream->method;
    }
    const char *payload = r->method == NGX_HTTP_PUT ? CAIRN_UNSIGNED_PAYLOAD : CAIRN_EMPTY_SHA256;
    cairn_header headers[3 + CAIRN_MAX_SIGNED_META];
    size_t n = 0;
    size_t names_len = 64;
    headers[n++] = (cairn_header) {"host", (char *) lcf->host.data};
    headers[n++] = (cairn_header) {"x-amz-content-sha256", payload};
    headers[n++] = (cairn_header) {"x-amz-date", date};
    for (ngx_uint_t i = 0; i < ctx->meta_count; i++) {
        ngx_table_elt_t *h = ctx->meta[i];
        headers[n++] = (cairn_header) {ngx_http_cairn_cstr(r->pool, h->lowcase_key, h->key.len),
                                       ngx_http_cairn_cstr(r->pool, h->value.data, h->value.len)};
        names_len += h->key.len + 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (headers[i].name == NULL || headers[i].value == NULL) {
            return NGX_ERROR;
        }
    }
    qsort(headers + 3, n - 3, sizeof(cairn_header), ngx_http_cairn_header_cmp);
    /* a header sent twice is signed once, its values joined by commas */
    size_t unique = 3;
    for (size_t i = 3; i < n; i++) {
        if (unique > 3 && ngx_strcmp(headers[unique - 1].name, headers[i].name) == 0) {
            size_t a = ngx_strlen(headers[unique - 1].value), b = ngx_strlen(headers[i].value);
            char *joined = ngx_pnalloc(r->pool, a + b + 2);
            if (joined == NULL) {
                return NGX_ERROR;
            }
            ngx_sprintf((u_char *) joined, "%s,%s%Z", headers[unique - 1].value, headers[i].value);
            headers[unique - 1].value = joined;
        } else {
            headers[unique++] = headers[i];
        }
    }
    char method_cstr[32];
    if (method.len >= sizeof(method_cstr)) {
        return NGX_ERROR;
    }
    *ngx_cpymem(method_cstr, method.data, method.len) = '\0';
    cairn_request req = {method_cstr, (char *) ctx->uri.data, "", headers, unique, payload, date};
    size_t cap = 256 + sizeof(lcf->signer->credentials.access_key) + names_len;
    u_char *auth = ngx_pnalloc(r->pool, cap);
    if (auth == NULL) {
        return NGX_ERROR;
    }
    long len = cairn_sign(lcf->signer, &req, (char *) auth, cap);
    if (len < 0) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0, "cairn: the request cannot be signed");
        return NGX_ERROR;
    }
    ctx->authorization.data = auth;
    ctx->authorization.len = (size_t) len;
    return NGX_OK;
}

enum { CAIRN_VAR_URI, CAIRN_VAR_HOST, CAIRN_VAR_DATE, CAIRN_VAR_SHA256, CAIRN_VAR_AUTHORIZATION };

static ngx_int_t ngx_http_cairn_variable(ngx_http_request_t *r, ngx_http_variable_value_t *v, uintptr_t which)
{
    ngx_http_cairn_ctx_t *ctx = ngx_http_get_module_ctx(r, ngx_http_cairn_module);
    if (ctx == NULL) {
        v->not_found = 1;
        return NGX_OK;
    }
    ngx_http_cairn_loc_conf_t *lcf = ngx_http_get_module_loc_conf(r, ngx_http_cairn_module);
    ngx_str_t value = ngx_null_string;
    if (which != CAIRN_VAR_URI && which != CAIRN_VAR_HOST && ngx_http_cairn_sign(r, ctx) != NGX_OK) {
        return NGX_ERROR;
    }
    switch (which) {
    case CAIRN_VAR_URI:
        value = ctx->uri;
        break;
    case CAIRN_VAR_HOST:
        value = lcf->host;
        break;
    case CAIRN_VAR_DATE:
        value = ctx->amz_date;
        break;
    case CAIRN_VAR_SHA256:
        if (lcf->signer != NULL) {
            value.data = (u_char *) (r->method == NGX_HTTP_PUT ? CAIRN_UNSIGNED_PAYLOAD : CAIRN_EMPTY_SHA256);
            value.len = ngx_strlen(value.data);
        }
        break;
    case CAIRN_VAR_AUTHORIZATION:
        value = ctx->authorization;
        break;
    }
    v->data = value.data;
    v->len = value.len;
    v->valid = 1;
    v->no_cacheable = 0;
    v->not_found = 0;
    return NGX_OK;
}

static ngx_http_variable_t ngx_http_cairn_vars[] = {
    {ngx_string("cairn_uri"), NULL, ngx_http_cairn_variable, CAIRN_VAR_URI, NGX_HTTP_VAR_NOCACHEABLE, 0},
    {ngx_string("cairn_host"), NULL, ngx_http_cairn_variable, CAIRN_VAR_HOST, NGX_HTTP_VAR_NOCACHEABLE, 0},
    {ngx_string("cairn_date"), NULL, ngx_http_cairn_variable, CAIRN_VAR_DATE, NGX_HTTP_VAR_NOCACHEABLE, 0},
    {ngx_string("cairn_content_sha256"), NULL, ngx_http_cairn_variable, CAIRN_VAR_SHA256,
     NGX_HTTP_VAR_NOCACHEABLE, 0},
    {ngx_string("cairn_authorization"), NULL, ngx_http_cairn_variable, CAIRN_VAR_AUTHORIZATION,
     NGX_HTTP_VAR_NOCACHEABLE, 0},
    ngx_http_null_variable};

ngx_int_t ngx_http_cairn_add_variables(ngx_conf_t *cf)
{
    for (ngx_http_variable_t *v = ngx_http_cairn_vars; v->name.len; v++) {
        ngx_http_variable_t *var = ngx_http_add_variable(cf, &v->name, v->flags);
        if (var == NULL) {
            return NGX_ERROR;
        }
        var->get_handler = v->get_handler;
        var->data = v->data;
    }
    return NGX_OK;
}

static ngx_int_t ngx_http_cairn_set_immutable(ngx_http_request_t *r)
{
    ngx_list_part_t *part = &r->headers_out.headers.part;
    ngx_table_elt_t *h = part->elts;
    for (ngx_uint_t i = 0;; i++) {
        if (i >= part->nelts) {
            if (part->next == NULL) {
                break;
            }
            part = part->next;
            h = part->elts;
            i = 0;
        }
        if (h[i].hash != 0 && h[i].key.len == sizeof("Cache-Control") - 1
            && ngx_strncasecmp(h[i].key.data, (u_char *) "Cache-Control", h[i].key.len) == 0) {
            h[i].hash = 0;
        }
    }
    ngx_table_elt_t *cc = ngx_list_push(&r->headers_out.headers);
    if (cc == NULL) {
        return NGX_ERROR;
    }
    cc->hash = 1;
    ngx_str_set(&cc->key, "Cache-Control");
    ngx_str_set(&cc->value, CAIRN_CAS_CACHE_CONTROL);
    return NGX_OK;
}

static ngx_int_t ngx_http_cairn_header_filter(ngx_http_request_t *r)
{
    ngx_http_cairn_ctx_t *ctx = ngx_http_get_module_ctx(r, ngx_http_cairn_module);
    if (ctx == NULL) {
        return ngx_http_next_header_filter(r);
    }
    ngx_http_cairn_loc_conf_t *lcf = ngx_http_get_module_loc_conf(r, ngx_http_cairn_module);
    ngx_uint_t status = r->headers_out.status;
    if (lcf->mask_403 && status == NGX_HTTP_FORBIDDEN) {
        return ngx_http_filter_finalize_request(r, &ngx_http_cairn_module, NGX_HTTP_NOT_FOUND);
    }
    if (lcf->cas && (status == NGX_HTTP_OK || status == NGX_HTTP_PARTIAL_CONTENT || status == NGX_HTTP_NOT_MODIFIED)
        && ngx_http_cairn_set_immutable(r) != NGX_OK) {
        return NGX_ERROR;
    }
    return ngx_http_next_header_filter(r);
}

ngx_int_t ngx_http_cairn_init(ngx_conf_t *cf)
{
    ngx_http_core_main_conf_t *cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);
    ngx_http_handler_pt *h = ngx_array_push(&cmcf->phases[NGX_HTTP_PRECONTENT_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }
    *h = ngx_http_cairn_handler;
    ngx_http_next_header_filter = ngx_http_top_header_filter;
    ngx_http_top_header_filter = ngx_http_cairn_header_filter;
    return NGX_OK;
}

/*
 * ngx_http_cairn_module: serves (and optionally accepts) objects of a Cairn bucket through
 * nginx's own proxy module. The module only decides the upstream path and computes the SigV4
 * headers; proxy_pass sends them over the upstream's pooled connections, so nothing here blocks.
 */
#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "ngx_http_cairn_module.h"

static void *ngx_http_cairn_create_loc_conf(ngx_conf_t *cf);
static char *ngx_http_cairn_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child);
static char *ngx_http_cairn_pass(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);
static char *ngx_http_cairn_credentials(ngx_conf_t *cf, ngx_command_t *cmd, void *conf);

static ngx_command_t ngx_http_cairn_commands[] = {
    {ngx_string("cairn_pass"), NGX_HTTP_LOC_CONF | NGX_CONF_TAKE1, ngx_http_cairn_pass,
     NGX_HTTP_LOC_CONF_OFFSET, 0, NULL},
    {ngx_string("cairn_bucket"), NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF | NGX_CONF_TAKE1,
     ngx_conf_set_str_slot, NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_cairn_loc_conf_t, bucket), NULL},
    {ngx_string("cairn_key_prefix"), NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF | NGX_CONF_TAKE1,
     ngx_conf_set_str_slot, NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_cairn_loc_conf_t, key_prefix), NULL},
    {ngx_string("cairn_host"), NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF | NGX_CONF_TAKE1,
     ngx_conf_set_str_slot, NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_cairn_loc_conf_t, host), NULL},
    {ngx_string("cairn_region"), NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF | NGX_CONF_TAKE1,
     ngx_conf_set_str_slot, NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_cairn_loc_conf_t, region), NULL},
    {ngx_string("cairn_credentials"), NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF | NGX_CONF_TAKE1,
     ngx_http_cairn_credentials, NGX_HTTP_LOC_CONF_OFFSET, 0, NULL},
    {ngx_string("cairn_cas"), NGX_HTTP_LOC_CONF | NGX_CONF_FLAG, ngx_conf_set_flag_slot,
     NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_cairn_loc_conf_t, cas), NULL},
    {ngx_string("cairn_upload"), NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF | NGX_CONF_FLAG,
     ngx_conf_set_flag_slot, NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_cairn_loc_conf_t, upload), NULL},
    {ngx_string("cairn_upload_max_size"), NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF | NGX_CONF_TAKE1,
     ngx_conf_set_off_slot, NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_cairn_loc_conf_t, upload_max_size), NULL},
    {ngx_string("cairn_mask_403"), NGX_HTTP_MAIN_CONF | NGX_HTTP_SRV_CONF | NGX_HTTP_LOC_CONF | NGX_CONF_FLAG,
     ngx_conf_set_flag_slot, NGX_HTTP_LOC_CONF_OFFSET, offsetof(ngx_http_cairn_loc_conf_t, mask_403), NULL},
    ngx_null_command};

static ngx_http_module_t ngx_http_cairn_module_ctx = {
    ngx_http_cairn_add_variables, ngx_http_cairn_init, NULL, NULL, NULL, NULL,
    ngx_http_cairn_create_loc_conf, ngx_http_cairn_merge_loc_conf};

ngx_module_t ngx_http_cairn_module = {
    NGX_MODULE_V1, &ngx_http_cairn_module_ctx, ngx_http_cairn_commands, NGX_HTTP_MODULE,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NGX_MODULE_V1_PADDING};

static void *ngx_http_cairn_create_loc_conf(ngx_conf_t *cf)
{
    ngx_http_cairn_loc_conf_t *conf = ngx_pcalloc(cf->pool, sizeof(*conf));
    if (conf == NULL) {
        return NULL;
    }
    conf->signer = NGX_CONF_UNSET_PTR;
    conf->cas = NGX_CONF_UNSET;
    conf->upload = NGX_CONF_UNSET;
    conf->upload_max_size = NGX_CONF_UNSET;
    conf->mask_403 = NGX_CONF_UNSET;
    return conf;
}

static char *ngx_http_cairn_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child)
{
    ngx_http_cairn_loc_conf_t *prev = parent, *conf = child;
    ngx_conf_merge_str_value(conf->bucket, prev->bucket, "");
    ngx_conf_merge_str_value(conf->key_prefix, prev->key_prefix, "");
    ngx_conf_merge_str_value(conf->host, prev->host, "");
    ngx_conf_merge_str_value(conf->region, prev->region, "us-east-1");
    ngx_conf_merge_ptr_value(conf->signer, prev->signer, NULL);
    ngx_conf_merge_value(conf->cas, prev->cas, 0);
    ngx_conf_merge_value(conf->upload, prev->upload, 0);
    ngx_conf_merge_off_value(conf->upload_max_size, prev->upload_max_size, 1024 * 1024);
    ngx_conf_merge_value(conf->mask_403, prev->mask_403, 0);
    if (conf->host.len == 0) {
        conf->host = conf->target;
    }
    /* the signer takes C strings: terminated once here rather than copied per request */
    u_char *host = ngx_pnalloc(cf->pool, conf->host.len + 1);
    if (host == NULL) {
        return NGX_CONF_ERROR;
    }
    *ngx_cpymem(host, conf->host.data, conf->host.len) = '\0';
    conf->host.data = host;
    if (conf->target.len > 0 && !conf->cas && conf->bucket.len == 0) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "cairn_pass needs cairn_bucket (or cairn_cas on)");
        return NGX_CONF_ERROR;
    }
    if (conf->signer != NULL && (ngx_strlen(conf->signer->region) != conf->region.len
                                 || ngx_strncmp(conf->signer->region, conf->region.data, conf->region.len) != 0)) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "cairn_region must come before cairn_credentials");
        return NGX_CONF_ERROR;
    }
    return NGX_CONF_OK;
}

static void ngx_http_cairn_signer_cleanup(void *data)
{
    cairn_signer_destroy(data);
}

/* Read at configuration time: a HUP re-reads the configuration and with it the file. */
static char *ngx_http_cairn_credentials(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_cairn_loc_conf_t *lcf = conf;
    ngx_str_t *value = cf->args->elts;
    if (lcf->signer != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }
    if (ngx_strcmp(value[1].data, "off") == 0) {
        lcf->signer = NULL;
        return NGX_CONF_OK;
    }
    if (ngx_conf_full_name(cf->cycle, &value[1], 1) != NGX_OK) {
        return NGX_CONF_ERROR;
    }
    cairn_credentials creds;
    char err[512];
    if (cairn_credentials_load((char *) value[1].data, &creds, err, sizeof(err)) != 0) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "cairn_credentials: %s", err);
        return NGX_CONF_ERROR;
    }
    ngx_pool_cleanup_t *cln = ngx_pool_cleanup_add(cf->pool, sizeof(cairn_signer));
    if (cln == NULL) {
        return NGX_CONF_ERROR;
    }
    const char *region = lcf->region.len ? (char *) lcf->region.data : "us-east-1";
    int rc = cairn_signer_init(cln->data, &creds, region, "s3");
    ngx_memzero(&creds, sizeof(creds));
    if (rc != 0) {
        return "cannot initialise the signer";
    }
    cln->handler = ngx_http_cairn_signer_cleanup;
    lcf->signer = cln->data;
    lcf->credentials_path = value[1];
    return NGX_CONF_OK;
}

/* Runs one directive of the proxy module as if written in the configuration. */
static char *ngx_http_cairn_proxy_directive(ngx_conf_t *cf, ngx_uint_t argc, ngx_str_t *argv)
{
    ngx_command_t *cmd;
    for (cmd = ngx_http_proxy_module.commands; cmd->name.len; cmd++) {
        if (cmd->name.len == argv[0].len && ngx_strncmp(cmd->name.data, argv[0].data, argv[0].len) == 0) {
            break;
        }
    }
    if (cmd->name.len == 0) {
        return "cannot find the proxy module's directive";
    }
    ngx_array_t *saved = cf->args;
    ngx_array_t *args = ngx_array_create(cf->temp_pool, argc, sizeof(ngx_str_t));
    if (args == NULL) {
        return NGX_CONF_ERROR;
    }
    for (ngx_uint_t i = 0; i < argc; i++) {
        ngx_str_t *arg = ngx_array_push(args);
        if (arg == NULL) {
            return NGX_CONF_ERROR;
        }
        /* the proxy module compares names with ngx_strcasecmp: NUL-terminated, as the parser's */
        arg->len = argv[i].len;
        arg->data = ngx_pnalloc(cf->pool, argv[i].len + 1);
        if (arg->data == NULL) {
            return NGX_CONF_ERROR;
        }
        ngx_memcpy(arg->data, argv[i].data, argv[i].len);
        arg->data[argv[i].len] = '\0';
    }
    cf->args = args;
    void *conf = ((ngx_http_conf_ctx_t *) cf->ctx)->loc_conf[ngx_http_proxy_module.ctx_index];
    char *rv = cmd->set(cf, cmd, conf);
    cf->args = saved;
    return rv;
}

/*
 * cairn_pass TARGET: proxy_pass to TARGET with the path and the SigV4 headers this module
 * computes, over HTTP/1.1 so that an upstream block's keepalive pool is used.
 */
static char *ngx_http_cairn_pass(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_cairn_loc_conf_t *lcf = conf;
    ngx_str_t *value = cf->args->elts;
    if (lcf->target.len) {
        return "is duplicate";
    }
    lcf->target = value[1];
    ngx_str_t url;
    url.len = sizeof("http://") - 1 + value[1].len + sizeof("$cairn_uri") - 1;
    url.data = ngx_pnalloc(cf->pool, url.len);
    if (url.data == NULL) {
        return NGX_CONF_ERROR;
    }
    ngx_sprintf(url.data, "http://%V$cairn_uri", &value[1]);
    static ngx_str_t headers[][2] = {
        {ngx_string("Host"), ngx_string("$cairn_host")},
        {ngx_string("Connection"), ngx_string("")},
        {ngx_string("Authorization"), ngx_string("$cairn_authorization")},
        {ngx_string("X-Amz-Date"), ngx_string("$cairn_date")},
        {ngx_string("X-Amz-Content-Sha256"), ngx_string("$cairn_content_sha256")},
    };
    ngx_str_t pass[] = {ngx_string("proxy_pass"), url};
    ngx_str_t version[] = {ngx_string("proxy_http_version"), ngx_string("1.1")};
    char *rv = ngx_http_cairn_proxy_directive(cf, 2, pass);
    if (rv == NGX_CONF_OK) {
        rv = ngx_http_cairn_proxy_directive(cf, 2, version);
    }
    for (size_t i = 0; rv == NGX_CONF_OK && i < sizeof(headers) / sizeof(headers[0]); i++) {
        ngx_str_t set[] = {ngx_string("proxy_set_header"), headers[i][0], headers[i][1]};
        rv = ngx_http_cairn_proxy_directive(cf, 3, set);
    }
    return rv;
}

static ngx_int_t ngx_http_cairn_strip_amz_headers(ngx_http_request_t *r, ngx_http_cairn_ctx_t *ctx);
static ngx_int_t ngx_http_cairn_object_uri(ngx_http_request_t *r, ngx_http_cairn_loc_conf_t *lcf,
                                           ngx_http_cairn_ctx_t *ctx);

/* Precontent phase: check the request and fix the upstream path; the signature comes later. */
ngx_int_t ngx_http_cairn_handler(ngx_http_request_t *r)
{
    ngx_http_cairn_loc_conf_t *lcf = ngx_http_get_module_loc_conf(r, ngx_http_cairn_module);
    if (lcf->target.len == 0 || ngx_http_get_module_ctx(r, ngx_http_cairn_module) != NULL) {
        return NGX_DECLINED;
    }
    /* OPTIONS: a browser's CORS preflight, answered by Cairn from the bucket's rules */
    ngx_uint_t allowed = NGX_HTTP_GET | NGX_HTTP_HEAD | NGX_HTTP_OPTIONS | (lcf->upload && !lcf->cas ? NGX_HTTP_PUT : 0);
    if (!(r->method & allowed)) {
        return NGX_HTTP_NOT_ALLOWED;
    }
    if (r->method == NGX_HTTP_PUT) {
        if (r->headers_in.content_length_n < 0) {
            return NGX_HTTP_LENGTH_REQUIRED;
        }
        if (r->headers_in.content_length_n > lcf->upload_max_size) {
            return NGX_HTTP_REQUEST_ENTITY_TOO_LARGE;
        }
    }
    ngx_http_cairn_ctx_t *ctx = ngx_pcalloc(r->pool, sizeof(*ctx));
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }
    ngx_int_t rc = ngx_http_cairn_object_uri(r, lcf, ctx);
    if (rc != NGX_OK) {
        return rc;
    }
    rc = ngx_http_cairn_strip_amz_headers(r, ctx);
    if (rc != NGX_OK) {
        return rc;
    }
    ngx_http_set_ctx(r, ctx, ngx_http_cairn_module);
    return NGX_DECLINED;
}

static ngx_int_t ngx_http_cairn_cas_uri(ngx_http_request_t *r, u_char *name, size_t len,
                                        ngx_http_cairn_ctx_t *ctx)
{
    if (len != 64) {
        return NGX_HTTP_NOT_FOUND;
    }
    ctx->uri.len = sizeof("/_cas/") - 1 + 64;
    ctx->uri.data = ngx_pnalloc(r->pool, ctx->uri.len + 1);
    if (ctx->uri.data == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }
    u_char *p = ngx_cpymem(ctx->uri.data, "/_cas/", sizeof("/_cas/") - 1);
    for (size_t i = 0; i < 64; i++) {
        u_char c = ngx_tolower(name[i]);
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return NGX_HTTP_NOT_FOUND;
        }
        *p++ = c;
    }
    *p = '\0';
    return NGX_OK;
}

/*
 * The key is taken from the path as the client sent it (not nginx's normalised r->uri, which
 * merges slashes), decoded once, then encoded strictly: the bytes signed are the bytes sent.
 */
static ngx_int_t ngx_http_cairn_object_uri(ngx_http_request_t *r, ngx_http_cairn_loc_conf_t *lcf,
                                           ngx_http_cairn_ctx_t *ctx)
{
    u_char *raw = r->unparsed_uri.data;
    size_t raw_len = r->unparsed_uri.len;
    u_char *query = ngx_strlchr(raw, raw + raw_len, '?');
    if (query != NULL) {
        raw_len = query - raw;
    }
    u_char *decoded = ngx_pnalloc(r->pool, raw_len + 1);
    if (decoded == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }
    long decoded_len = cairn_path_decode((char *) raw, raw_len, decoded);
    if (decoded_len < 0) {
        return NGX_HTTP_BAD_REQUEST;
    }
    ngx_http_core_loc_conf_t *clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);
    size_t skip = 1;
#if (NGX_PCRE)
    if (clcf->regex == NULL)
#endif
    {
        if ((size_t) decoded_len < clcf->name.len || ngx_strncmp(decoded, clcf->name.data, clcf->name.len) != 0) {
            return NGX_HTTP_BAD_REQUEST;
        }
        skip = clcf->name.len;
    }
    u_char *name = decoded + skip;
    size_t name_len = (size_t) decoded_len - skip;
    if (lcf->cas) {
        return ngx_http_cairn_cas_uri(r, name, name_len, ctx);
    }
    if (name_len == 0 && lcf->key_prefix.len == 0) {
        return NGX_HTTP_NOT_FOUND; /* the bucket itself: a listing, never served */
    }
    size_t key_len = lcf->key_prefix.len + name_len;
    u_char *key = ngx_pnalloc(r->pool, key_len + 1);
    u_char *uri = ngx_pnalloc(r->pool, 2 + 3 * (lcf->bucket.len + key_len) + 1);
    if (key == NULL || uri == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }
    ngx_memcpy(ngx_cpymem(key, lcf->key_prefix.data, lcf->key_prefix.len), name, name_len);
    u_char *p = uri;
    *p++ = '/';
    p += cairn_uri_encode(lcf->bucket.data, lcf->bucket.len, 0, (char *) p);
    *p++ = '/';
    p += cairn_uri_encode(key, key_len, 1, (char *) p); /* NUL-terminated: signed as it is */
    ctx->uri.data = uri;
    ctx->uri.len = p - uri;
    return NGX_OK;
}

/*
 * Client x-amz-* headers would reach Cairn unsigned (refused) or act with the module's
 * credentials (x-amz-copy-source): they are dropped, except x-amz-meta-* on uploads, which are
 * signed. nginx's lists cannot delete, so the list is rebuilt, only when there is one to drop.
 */
static ngx_int_t ngx_http_cairn_strip_amz_headers(ngx_http_request_t *r, ngx_http_cairn_ctx_t *ctx)
{
    ngx_uint_t total = 0, drop = 0;
    ngx_list_part_t *part;
    ngx_table_elt_t *h;
    for (part = &r->headers_in.headers.part; part; part = part->next) {
        h = part->elts;
        for (ngx_uint_t i = 0; i < part->nelts; i++) {
            total++;
            int amz = h[i].key.len > 6 && ngx_strncmp(h[i].lowcase_key, "x-amz-", 6) == 0;
            int meta = amz && h[i].key.len > 11 && ngx_strncmp(h[i].lowcase_key, "x-amz-meta-", 11) == 0;
            if (amz && !(meta && r->method == NGX_HTTP_PUT)) {
                drop++;
            } else if (meta) {
                if (ctx->meta_count == CAIRN_MAX_SIGNED_META) {
                    return NGX_HTTP_BAD_REQUEST;
                }
                ctx->meta[ctx->meta_count++] = &h[i];
            }
        }
    }
    if (drop == 0) {
        return NGX_OK;
    }
    ngx_list_t headers;
    if (ngx_list_init(&headers, r->pool, total - drop, sizeof(ngx_table_elt_t)) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }
    ctx->meta_count = 0;
    for (part = &r->headers_in.headers.part; part; part = part->next) {
        h = part->elts;
        for (ngx_uint_t i = 0; i < part->nelts; i++) {
            int amz = h[i].key.len > 6 && ngx_strncmp(h[i].lowcase_key, "x-amz-", 6) == 0;
            int meta = amz && h[i].key.len > 11 && ngx_strncmp(h[i].lowcase_key, "x-amz-meta-", 11) == 0;
            if (amz && !(meta && r->method == NGX_HTTP_PUT)) {
                continue;
            }
            ngx_table_elt_t *copy = ngx_list_push(&headers);
            if (copy == NULL) {
                return NGX_HTTP_INTERNAL_SERVER_ERROR;
            }
            *copy = h[i];
            if (meta) {
                ctx->meta[ctx->meta_count++] = copy;
            }
        }
    }
    r->headers_in.headers = headers;
    /* the list's last part is its first: it must point into the request, not at this stack */
    r->headers_in.headers.last = &r->headers_in.headers.part;
    return NGX_OK;
}

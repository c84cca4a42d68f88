/*
 * mod_cairn: serves (and optionally accepts) objects of a Cairn bucket through Apache httpd.
 * translate_name maps the request to a mod_proxy URL whose path is the strictly encoded key;
 * fixups signs it; mod_proxy_http sends it over the worker CairnPass defines (pooled,
 * kept-alive connections).
 */
#include "mod_cairn.h"

#include "apr_strings.h"
#include "apr_uri.h"
#include "http_core.h"
#include "http_log.h"
#include "http_protocol.h"
#include "http_request.h"
#include "mod_proxy.h"

extern module AP_MODULE_DECLARE_DATA proxy_module;

static void *create_dir_conf(apr_pool_t *p, char *dir)
{
    cairn_dir_conf *c = apr_pcalloc(p, sizeof(*c));
    c->location = dir;
    c->cas = -1;
    c->upload = -1;
    c->upload_max_size = -1;
    c->mask_403 = -1;
    return c;
}

#define MERGE(field, unset) (add->field != (unset) ? add->field : base->field)

static void *merge_dir_conf(apr_pool_t *p, void *base_, void *add_)
{
    cairn_dir_conf *base = base_, *add = add_, *c = apr_pcalloc(p, sizeof(*c));
    c->location = MERGE(location, NULL);
    c->backend = MERGE(backend, NULL);
    c->host = MERGE(host, NULL);
    c->bucket = MERGE(bucket, NULL);
    c->key_prefix = MERGE(key_prefix, NULL);
    c->region = MERGE(region, NULL);
    c->signer = add->signer_set ? add->signer : base->signer;
    c->signer_set = add->signer_set || base->signer_set;
    c->cas = MERGE(cas, -1);
    c->upload = MERGE(upload, -1);
    c->upload_max_size = MERGE(upload_max_size, -1);
    c->mask_403 = MERGE(mask_403, -1);
    return c;
}

static apr_status_t cleanup_signer(void *data)
{
    cairn_signer_destroy(data);
    return APR_SUCCESS;
}

/* Read when the configuration is read: a restart (HUP, graceful) reads the file again. */
static const char *set_credentials(cmd_parms *cmd, void *conf, const char *arg)
{
    cairn_dir_conf *c = conf;
    c->signer_set = 1;
    if (strcasecmp(arg, "off") == 0) {
        c->signer = NULL;
        return NULL;
    }
    const char *path = ap_server_root_relative(cmd->pool, arg);
    cairn_credentials creds;
    char err[512];
    if (path == NULL || cairn_credentials_load(path, &creds, err, sizeof(err)) != 0) {
        return apr_pstrcat(cmd->pool, "CairnCredentials: ", path ? err : arg, NULL);
    }
    c->signer = apr_palloc(cmd->pool, sizeof(cairn_signer));
    int rc = cairn_signer_init(c->signer, &creds, c->region ? c->region : "us-east-1", "s3");
    memset(&creds, 0, sizeof(creds));
    if (rc != 0) {
        return "CairnCredentials: cannot initialise the signer";
    }
    apr_pool_cleanup_register(cmd->pool, c->signer, cleanup_signer, apr_pool_cleanup_null);
    return NULL;
}

/*
 * CairnPass http://host:port: defines (or reuses) mod_proxy's worker for the backend, so that
 * requests share its connection pool as ProxyPass ones do.
 */
static const char *set_pass(cmd_parms *cmd, void *conf, const char *arg)
{
    cairn_dir_conf *c = conf;
    apr_uri_t uri;
    if (apr_uri_parse(cmd->pool, arg, &uri) != APR_SUCCESS || uri.scheme == NULL || strcasecmp(uri.scheme, "http")
        || uri.hostname == NULL || (uri.path != NULL && strcmp(uri.path, "/") != 0)) {
        return "CairnPass takes http://host[:port] with no path";
    }
    c->backend = apr_pstrcat(cmd->pool, "http://", uri.hostinfo, NULL);
    apr_port_t port = uri.port ? uri.port : 80;
    const char *hostname = strchr(uri.hostname, ':') ? apr_pstrcat(cmd->pool, "[", uri.hostname, "]", NULL)
                                                     : uri.hostname;
    c->host = port == 80 ? hostname : apr_psprintf(cmd->pool, "%s:%u", hostname, (unsigned) port);
    proxy_server_conf *pconf = ap_get_module_config(cmd->server->module_config, &proxy_module);
    if (pconf == NULL) {
        return "CairnPass needs mod_proxy and mod_proxy_http loaded before mod_cairn";
    }
    if (ap_proxy_get_worker_ex(cmd->temp_pool, NULL, pconf, c->backend, AP_PROXY_WORKER_IS_PREFIX) == NULL) {
        proxy_worker *worker;
        char *err = ap_proxy_define_worker_ex(cmd->pool, &worker, NULL, pconf, c->backend, AP_PROXY_WORKER_IS_PREFIX);
        if (err != NULL) {
            return apr_pstrcat(cmd->temp_pool, "CairnPass: ", err, NULL);
        }
    }
    return NULL;
}

static const char *set_max_size(cmd_parms *cmd, void *conf, const char *arg)
{
    (void) cmd;
    cairn_dir_conf *c = conf;
    char *end;
    if (apr_strtoff(&c->upload_max_size, arg, &end, 10) != APR_SUCCESS || *end || c->upload_max_size < 0) {
        return "CairnUploadMaxSize takes a number of bytes";
    }
    return NULL;
}

static const command_rec cairn_cmds[] = {
    AP_INIT_TAKE1("CairnPass", set_pass, NULL, ACCESS_CONF, "the Cairn service, http://host:port"),
    AP_INIT_TAKE1("CairnBucket", ap_set_string_slot, (void *) APR_OFFSETOF(cairn_dir_conf, bucket), ACCESS_CONF,
                  "the bucket served"),
    AP_INIT_TAKE1("CairnKeyPrefix", ap_set_string_slot, (void *) APR_OFFSETOF(cairn_dir_conf, key_prefix),
                  ACCESS_CONF, "prepended to the path to make the key"),
    AP_INIT_TAKE1("CairnHost", ap_set_string_slot, (void *) APR_OFFSETOF(cairn_dir_conf, host), ACCESS_CONF,
                  "the Host header sent and signed"),
    AP_INIT_TAKE1("CairnRegion", ap_set_string_slot, (void *) APR_OFFSETOF(cairn_dir_conf, region), ACCESS_CONF,
                  "the signing region"),
    AP_INIT_TAKE1("CairnCredentials", set_credentials, NULL, ACCESS_CONF, "a credentials file, or off"),
    AP_INIT_FLAG("CairnCas", ap_set_flag_slot, (void *) APR_OFFSETOF(cairn_dir_conf, cas), ACCESS_CONF,
                 "serve /_cas/<sha256> content by hash"),
    AP_INIT_FLAG("CairnUpload", ap_set_flag_slot, (void *) APR_OFFSETOF(cairn_dir_conf, upload), ACCESS_CONF,
                 "accept PUT uploads"),
    AP_INIT_TAKE1("CairnUploadMaxSize", set_max_size, NULL, ACCESS_CONF, "the largest upload in bytes"),
    AP_INIT_FLAG("CairnMask403", ap_set_flag_slot, (void *) APR_OFFSETOF(cairn_dir_conf, mask_403), ACCESS_CONF,
                 "answer 404 where Cairn answers 403"),
    {NULL}};

static int cas_path(request_rec *r, const unsigned char *name, size_t len, char **out)
{
    if (len != 64) {
        return HTTP_NOT_FOUND;
    }
    char *p = *out = apr_palloc(r->pool, sizeof("/_cas/") + 64);
    p = stpcpy(p, "/_cas/");
    for (size_t i = 0; i < 64; i++) {
        char c = apr_tolower(name[i]);
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return HTTP_NOT_FOUND;
        }
        *p++ = c;
    }
    *p = '\0';
    return OK;
}

/* The key comes from the path as sent (not r->uri, where slashes are merged), decoded once. */
static int object_path(request_rec *r, cairn_dir_conf *c, char **out)
{
    const char *raw = r->unparsed_uri;
    size_t raw_len = strcspn(raw, "?");
    unsigned char *decoded = apr_palloc(r->pool, raw_len + 1);
    long decoded_len = cairn_path_decode(raw, raw_len, decoded);
    size_t skip = c->location ? strlen(c->location) : 1;
    if (decoded_len < 0 || (size_t) decoded_len < skip || memcmp(decoded, c->location ? c->location : "/", skip)) {
        return HTTP_BAD_REQUEST;
    }
    const unsigned char *name = decoded + skip;
    size_t name_len = (size_t) decoded_len - skip;
    if (c->cas > 0) {
        return cas_path(r, name, name_len, out);
    }
    size_t prefix_len = c->key_prefix ? strlen(c->key_prefix) : 0;
    if (name_len == 0 && prefix_len == 0) {
        return HTTP_NOT_FOUND; /* the bucket itself: a listing, never served */
    }
    unsigned char *key = apr_palloc(r->pool, prefix_len + name_len + 1);
    memcpy(key, c->key_prefix ? c->key_prefix : "", prefix_len);
    memcpy(key + prefix_len, name, name_len);
    size_t bucket_len = strlen(c->bucket);
    char *p = *out = apr_palloc(r->pool, 3 + 3 * (bucket_len + prefix_len + name_len));
    *p++ = '/';
    p += cairn_uri_encode((const unsigned char *) c->bucket, bucket_len, 0, p);
    *p++ = '/';
    cairn_uri_encode(key, prefix_len + name_len, 1, p);
    return OK;
}

static cairn_dir_conf *served_here(request_rec *r)
{
    cairn_dir_conf *c = ap_get_module_config(r->per_dir_config, &cairn_module);
    return c->backend == NULL || r->main != NULL || r->prev != NULL ? NULL : c;
}

/*
 * Before httpd decodes the path, which answers 404 to a "%2F" unless AllowEncodedSlashes is set
 * server-wide: a key may hold one. The key is taken from the raw path (object_path); r->uri, which
 * <Location> sections match, is decoded here as AllowEncodedSlashes NoDecode would, and DONE
 * tells httpd it is decoded.
 */
static int cairn_pre_translate(request_rec *r)
{
    if (served_here(r) == NULL || r->uri == NULL) {
        return DECLINED;
    }
    int rc = ap_unescape_url_ex(r->uri, AP_UNESCAPE_URL_KEEP_UNRESERVED | AP_UNESCAPE_URL_KEEP_SLASHES);
    return rc == OK ? DONE : rc;
}

static int cairn_translate(request_rec *r)
{
    cairn_dir_conf *c = served_here(r);
    if (c == NULL) {
        return DECLINED;
    }
    if (c->cas <= 0 && c->bucket == NULL) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "CairnPass without CairnBucket (or CairnCas On)");
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    int put_allowed = c->upload > 0 && c->cas <= 0;
    /* OPTIONS: a browser's CORS preflight, answered by Cairn from the bucket's rules */
    if (r->method_number != M_GET && r->method_number != M_OPTIONS && !(r->method_number == M_PUT && put_allowed)) {
        r->allowed = (AP_METHOD_BIT << M_GET) | (AP_METHOD_BIT << M_OPTIONS) | (put_allowed ? AP_METHOD_BIT << M_PUT : 0);
        return HTTP_METHOD_NOT_ALLOWED;
    }
    if (r->method_number == M_PUT) {
        const char *length = apr_table_get(r->headers_in, "Content-Length");
        apr_off_t size;
        char *end;
        if (length == NULL || apr_strtoff(&size, length, &end, 10) != APR_SUCCESS || *end || size < 0) {
            return HTTP_LENGTH_REQUIRED;
        }
        if (size > (c->upload_max_size >= 0 ? c->upload_max_size : 1024 * 1024)) {
            return HTTP_REQUEST_ENTITY_TOO_LARGE;
        }
    }
    char *path;
    int rc = object_path(r, c, &path);
    if (rc != OK) {
        return rc;
    }
    r->filename = apr_pstrcat(r->pool, "proxy:", c->backend, path, NULL);
    r->handler = "proxy-server";
    r->proxyreq = PROXYREQ_REVERSE;
    /* the path is final: mod_proxy must send it byte for byte, without re-encoding or query */
    apr_table_setn(r->notes, "proxy-nocanon", "1");
    apr_table_setn(r->notes, CAIRN_NOTE, path);
    return OK;
}

/*
 * The response's type is Cairn's: mod_mime must not guess one from the key's extension (which
 * shows where Cairn's answer has none: a HEAD 404, a PUT 200), nor add a language, encoding or
 * handler for it.
 */
static int cairn_type_checker(request_rec *r)
{
    return apr_table_get(r->notes, CAIRN_NOTE) != NULL ? OK : DECLINED;
}

static void register_hooks(apr_pool_t *p)
{
    (void) p;
    static const char *const before_proxy[] = {"mod_proxy.c", NULL};
    ap_hook_pre_translate_name(cairn_pre_translate, NULL, before_proxy, APR_HOOK_FIRST);
    ap_hook_translate_name(cairn_translate, NULL, before_proxy, APR_HOOK_FIRST);
    ap_hook_type_checker(cairn_type_checker, NULL, NULL, APR_HOOK_FIRST);
    ap_hook_fixups(cairn_fixups, NULL, NULL, APR_HOOK_LAST);
    ap_hook_insert_error_filter(cairn_insert_error_filter, NULL, NULL, APR_HOOK_MIDDLE);
    cairn_response_filter_handle = ap_register_output_filter("CAIRN_RESPONSE", cairn_response_filter, NULL,
                                                             AP_FTYPE_CONTENT_SET);
}

AP_DECLARE_MODULE(cairn) = {
    STANDARD20_MODULE_STUFF, create_dir_conf, merge_dir_conf, NULL, NULL, cairn_cmds, register_hooks,
#if defined(AP_MODULE_FLAG_ALWAYS_MERGE)
    AP_MODULE_FLAG_NONE
#endif
};

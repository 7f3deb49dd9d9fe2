/* libcurl through dlopen: see gpstrack_curl.h. The pointers are written once, under a mutex,
   before the first call through them. curl.h checks the pointers' types. */
#include "gpstrack_curl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>

static __typeof__(&curl_global_init) p_global_init;
static __typeof__(&curl_easy_init) p_init;
static __typeof__(&curl_easy_cleanup) p_cleanup;
static __typeof__(&curl_easy_setopt) p_setopt;
static __typeof__(&curl_easy_perform) p_perform;
static __typeof__(&curl_easy_getinfo) p_getinfo;
static __typeof__(&curl_easy_strerror) p_strerror;
static __typeof__(&curl_slist_append) p_slist_append;
static __typeof__(&curl_slist_free_all) p_slist_free;
static __typeof__(&curl_share_init) p_share_init;
static __typeof__(&curl_share_setopt) p_share_setopt;
static __typeof__(&curl_share_cleanup) p_share_cleanup;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;

int gpstrack_curl_load(char *error, size_t size) {
    pthread_mutex_lock(&load_lock);
    int rc = 0;
    if (!loaded) {
        void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            snprintf(error, size, "%s", dlerror());
            rc = -1;
        } else {
#define LOAD(p, name) p = (__typeof__(p))dlsym(lib, name)
            LOAD(p_global_init, "curl_global_init");
            LOAD(p_init, "curl_easy_init");
            LOAD(p_cleanup, "curl_easy_cleanup");
            LOAD(p_setopt, "curl_easy_setopt");
            LOAD(p_perform, "curl_easy_perform");
            LOAD(p_getinfo, "curl_easy_getinfo");
            LOAD(p_strerror, "curl_easy_strerror");
            LOAD(p_slist_append, "curl_slist_append");
            LOAD(p_slist_free, "curl_slist_free_all");
            LOAD(p_share_init, "curl_share_init");
            LOAD(p_share_setopt, "curl_share_setopt");
            LOAD(p_share_cleanup, "curl_share_cleanup");
#undef LOAD
            if (!p_global_init || !p_init || !p_cleanup || !p_setopt || !p_perform || !p_getinfo
                || !p_strerror || !p_slist_append || !p_slist_free || !p_share_init || !p_share_setopt
                || !p_share_cleanup) {
                snprintf(error, size, "libcurl.so.4 lacks the easy interface");
                rc = -1;
            } else if (p_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
                snprintf(error, size, "curl_global_init failed");
                rc = -1;
            } else {
                loaded = 1;
            }
        }
    }
    pthread_mutex_unlock(&load_lock);
    return rc;
}

/* The kept state is a share (connections, DNS, TLS sessions), not an easy handle: each request
   gets a new easy handle. libcurl 7.88 (Debian 12) keeps a dangling pointer to the last stored
   header in a reused easy handle, and a reply whose first header line is folded then makes it
   read and realloc freed memory (curl #11101, fixed in 8.1.0); a new handle has none. The
   share is used by one thread at a time (the client's lock), so it needs no lock callbacks. */
void *gpstrack_curl_new(void) {
    if (!p_share_init) return NULL;
    CURLSH *share = p_share_init();
    if (!share) return NULL;
    if (p_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT) != CURLSHE_OK
        || p_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK
        || p_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK) {
        p_share_cleanup(share);
        return NULL;
    }
    return share;
}

void gpstrack_curl_free(void *handle) {
    if (handle && p_share_cleanup) p_share_cleanup(handle);
}

struct sink { struct gpstrack_http_reply *reply; size_t max; };

/* Keeps at most `max` bytes; one byte more ends the transfer (CURLE_WRITE_ERROR). */
static size_t on_data(char *data, size_t one, size_t n, void *arg) {
    struct sink *s = arg;
    size_t bytes = one * n;
    struct gpstrack_http_reply *r = s->reply;
    if (r->body_size + bytes > s->max) { r->truncated = 1; return 0; }
    char *grown = realloc(r->body, r->body_size + bytes + 1);
    if (!grown) return 0;
    memcpy(grown + r->body_size, data, bytes);
    r->body = grown;
    r->body_size += bytes;
    r->body[r->body_size] = 0;
    return bytes;
}

int gpstrack_curl_perform(void *handle, const struct gpstrack_http_request *req, struct gpstrack_http_reply *reply) {
    memset(reply, 0, sizeof *reply);
    if (!loaded || !handle) { reply->curl_code = CURLE_FAILED_INIT; snprintf(reply->error, sizeof reply->error, "libcurl not loaded"); return reply->curl_code; }
    CURL *c = p_init();
    if (!c) { reply->curl_code = CURLE_FAILED_INIT; snprintf(reply->error, sizeof reply->error, "curl_easy_init failed"); return reply->curl_code; }
    struct sink s = { reply, req->max_reply };
    struct curl_slist *headers = NULL;
    for (int i = 0; i < req->header_count; i++) headers = p_slist_append(headers, req->headers[i]);
    /* The share keeps the connection: the next request reuses it. */
    p_setopt(c, CURLOPT_SHARE, handle);
    p_setopt(c, CURLOPT_URL, req->url);
    p_setopt(c, CURLOPT_NOSIGNAL, 1L);
    p_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    p_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);           /* a redirect is an answer, not a loop */
    p_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, req->connect_timeout_ms);
    p_setopt(c, CURLOPT_TIMEOUT_MS, req->timeout_ms);
    p_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
    p_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    p_setopt(c, CURLOPT_WRITEDATA, &s);
    p_setopt(c, CURLOPT_ERRORBUFFER, reply->error);
    if (headers) p_setopt(c, CURLOPT_HTTPHEADER, headers);
    if (req->ca_file) p_setopt(c, CURLOPT_CAINFO, req->ca_file);
    if (req->cert_file) p_setopt(c, CURLOPT_SSLCERT, req->cert_file);
    if (req->key_file) p_setopt(c, CURLOPT_SSLKEY, req->key_file);
    if (req->userpwd) { p_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC); p_setopt(c, CURLOPT_USERPWD, req->userpwd); }
    if (strcmp(req->method, "POST") == 0) {
        p_setopt(c, CURLOPT_POST, 1L);
        p_setopt(c, CURLOPT_POSTFIELDSIZE, (long)req->body_size);
        p_setopt(c, CURLOPT_POSTFIELDS, req->body ? req->body : "");
    } else {
        p_setopt(c, CURLOPT_HTTPGET, 1L);
    }
    CURLcode rc = p_perform(c);
    p_getinfo(c, CURLINFO_RESPONSE_CODE, &reply->status);
    if (rc != CURLE_OK && reply->error[0] == 0) snprintf(reply->error, sizeof reply->error, "%s", p_strerror(rc));
    if (reply->truncated) snprintf(reply->error, sizeof reply->error, "reply longer than %zu bytes", req->max_reply);
    /* The handle and the options pointing into this call's memory end with the call; the
       connection goes back to the share. */
    p_cleanup(c);
    p_slist_free(headers);
    reply->curl_code = rc;
    return rc;
}

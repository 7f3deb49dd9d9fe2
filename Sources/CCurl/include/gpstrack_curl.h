#ifndef GPSTRACK_CURL_H
#define GPSTRACK_CURL_H
/* libcurl (Debian 12: 7.88, libcurl.so.4), loaded with dlopen when an HTTP uplink is
   configured, so that a box without one maps nothing of it (nor its TLS libraries). One call
   does a whole request on a new easy handle over the kept connection: the reply's body is
   capped, every phase is timed. */
#include <stddef.h>

/* Loads libcurl.so.4 once and initialises it; 0 on success, else -1 with the reason. */
int gpstrack_curl_load(char *error, size_t size);

/* A new share handle, which keeps the connection between requests, or NULL. */
void *gpstrack_curl_new(void);
void gpstrack_curl_free(void *handle);

/* One request. */
struct gpstrack_http_request {
    const char *url;
    const char *method;          /* "POST" or "GET" */
    const char *body;            /* NULL: none */
    size_t body_size;
    const char *const *headers;  /* "Name: value" lines */
    int header_count;
    const char *userpwd;         /* "user:password" for basic authentication, or NULL */
    const char *ca_file;         /* NULL: the system's CAs */
    long connect_timeout_ms;
    long timeout_ms;             /* the whole request, reply included */
    size_t max_reply;            /* a longer reply ends the request (reply_truncated set) */
    const char *cert_file;       /* a client certificate (PEM), or NULL */
    const char *key_file;        /* its private key (PEM), or NULL */
};

struct gpstrack_http_reply {
    long status;                 /* the HTTP status; 0 when none came */
    char *body;                  /* malloc'ed, NUL-terminated, at most max_reply bytes; free it */
    size_t body_size;
    int truncated;               /* the reply was longer than max_reply */
    int curl_code;               /* CURLE_OK (0) or why the request failed */
    char error[256];             /* libcurl's words for curl_code */
};

/* Performs `req` on `handle`; fills `reply` (free reply->body). Returns reply->curl_code. */
int gpstrack_curl_perform(void *handle, const struct gpstrack_http_request *req, struct gpstrack_http_reply *reply);

#endif

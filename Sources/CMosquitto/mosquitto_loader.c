/* libmosquitto and libssl through dlopen: see gpstrack_mosquitto.h. The table is written once,
   under a mutex, before the first call through it; a load that failed leaves it empty. */
#include "gpstrack_mosquitto.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define MOSQ_FUNCTIONS(X, V) \
    X(int, mosquitto_lib_init, (void), ()) \
    X(int, mosquitto_lib_cleanup, (void), ()) \
    X(struct mosquitto *, mosquitto_new, (const char *id, bool c, void *obj), (id, c, obj)) \
    V(void, mosquitto_destroy, (struct mosquitto *m), (m)) \
    V(void, mosquitto_connect_callback_set, (struct mosquitto *m, void (*f)(struct mosquitto *, void *, int)), (m, f)) \
    V(void, mosquitto_disconnect_callback_set, (struct mosquitto *m, void (*f)(struct mosquitto *, void *, int)), (m, f)) \
    V(void, mosquitto_publish_callback_set, (struct mosquitto *m, void (*f)(struct mosquitto *, void *, int)), (m, f)) \
    V(void, mosquitto_log_callback_set, (struct mosquitto *m, void (*f)(struct mosquitto *, void *, int, const char *)), (m, f)) \
    V(void, mosquitto_message_callback_set, \
      (struct mosquitto *m, void (*f)(struct mosquitto *, void *, const struct mosquitto_message *)), (m, f)) \
    X(int, mosquitto_will_set, (struct mosquitto *m, const char *t, int n, const void *p, int q, bool r), (m, t, n, p, q, r)) \
    X(int, mosquitto_username_pw_set, (struct mosquitto *m, const char *u, const char *p), (m, u, p)) \
    X(int, mosquitto_tls_set, (struct mosquitto *m, const char *ca, const char *capath, const char *cert, \
      const char *key, int (*cb)(char *, int, int, void *)), (m, ca, capath, cert, key, cb)) \
    X(int, mosquitto_threaded_set, (struct mosquitto *m, bool t), (m, t)) \
    X(int, mosquitto_connect_async, (struct mosquitto *m, const char *h, int p, int k), (m, h, p, k)) \
    X(int, mosquitto_reconnect_async, (struct mosquitto *m), (m)) \
    X(int, mosquitto_disconnect, (struct mosquitto *m), (m)) \
    X(int, mosquitto_loop, (struct mosquitto *m, int t, int n), (m, t, n)) \
    X(int, mosquitto_subscribe, (struct mosquitto *m, int *mid, const char *s, int q), (m, mid, s, q)) \
    X(int, mosquitto_publish, (struct mosquitto *m, int *mid, const char *t, int n, const void *p, int q, bool r), \
      (m, mid, t, n, p, q, r)) \
    X(void *, mosquitto_ssl_get, (struct mosquitto *m), (m)) \
    X(const char *, mosquitto_strerror, (int e), (e)) \
    X(const char *, mosquitto_connack_string, (int c), (c))

#define POINTER(ret, name, params, args) static ret (*p_##name) params;
MOSQ_FUNCTIONS(POINTER, POINTER)
static long (*p_SSL_get_verify_result)(const void *);
static const char *(*p_X509_verify_cert_error_string)(long);

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;

int gpstrack_mosquitto_load(char *error, size_t size) {
    pthread_mutex_lock(&load_lock);
    if (loaded) {
        pthread_mutex_unlock(&load_lock);
        return 0;
    }
    void *lib = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(error, size, "%s", dlerror());
        pthread_mutex_unlock(&load_lock);
        return -1;
    }
#define RESOLVE(ret, name, params, args) \
    p_##name = (ret (*) params)dlsym(lib, #name); \
    if (!p_##name) { \
        snprintf(error, size, "libmosquitto.so.1 has no %s", #name); \
        dlclose(lib); \
        pthread_mutex_unlock(&load_lock); \
        return -1; \
    }
    MOSQ_FUNCTIONS(RESOLVE, RESOLVE)
    /* libmosquitto links libssl itself: this finds the copy already mapped. Without it, TLS
       errors are still reported, only without the certificate's verification result. */
    void *ssl = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
    if (ssl) {
        p_SSL_get_verify_result = (long (*)(const void *))dlsym(ssl, "SSL_get_verify_result");
        p_X509_verify_cert_error_string = (const char *(*)(long))dlsym(ssl, "X509_verify_cert_error_string");
    }
    loaded = 1;
    pthread_mutex_unlock(&load_lock);
    return 0;
}

bool gpstrack_openssl_loaded(void) { return p_SSL_get_verify_result && p_X509_verify_cert_error_string; }

#define WRAPPER(ret, name, params, args) \
    ret dl_##name params { return p_##name args; }
#define VOID_WRAPPER(ret, name, params, args) \
    void dl_##name params { p_##name args; }
MOSQ_FUNCTIONS(WRAPPER, VOID_WRAPPER)

long dl_SSL_get_verify_result(const void *ssl) {
    return p_SSL_get_verify_result ? p_SSL_get_verify_result(ssl) : -1;
}

const char *dl_X509_verify_cert_error_string(long n) {
    return p_X509_verify_cert_error_string ? p_X509_verify_cert_error_string(n) : "unknown";
}

/* libsodium through dlopen: see gpstrack_sodium.h. The pointers are written once, under a
   mutex, before the first call through them. sodium.h checks the pointers' types. */
#include "gpstrack_sodium.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sodium.h>

static __typeof__(&crypto_secretbox_easy) p_easy;
static __typeof__(&crypto_secretbox_open_easy) p_open;
static __typeof__(&randombytes_buf) p_random;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;

int gpstrack_sodium_load(char *error, size_t size) {
    pthread_mutex_lock(&load_lock);
    int rc = 0;
    if (!loaded) {
        void *lib = dlopen("libsodium.so.23", RTLD_NOW | RTLD_LOCAL);
        __typeof__(&sodium_init) init = lib ? (__typeof__(&sodium_init))dlsym(lib, "sodium_init") : NULL;
        if (!lib) {
            snprintf(error, size, "%s", dlerror());
            rc = -1;
        } else {
            p_easy = (__typeof__(p_easy))dlsym(lib, "crypto_secretbox_easy");
            p_open = (__typeof__(p_open))dlsym(lib, "crypto_secretbox_open_easy");
            p_random = (__typeof__(p_random))dlsym(lib, "randombytes_buf");
            if (!init || !p_easy || !p_open || !p_random) {
                snprintf(error, size, "libsodium.so.23 lacks crypto_secretbox or randombytes");
                rc = -1;
            } else if (init() < 0) {
                snprintf(error, size, "sodium_init failed");
                rc = -1;
            } else {
                loaded = 1;
            }
        }
    }
    pthread_mutex_unlock(&load_lock);
    return rc;
}

int dl_crypto_secretbox_easy(unsigned char *c, const unsigned char *m, unsigned long long mlen,
                             const unsigned char *n, const unsigned char *k) {
    return p_easy ? p_easy(c, m, mlen, n, k) : -1;
}

int dl_crypto_secretbox_open_easy(unsigned char *m, const unsigned char *c, unsigned long long clen,
                                  const unsigned char *n, const unsigned char *k) {
    return p_open ? p_open(m, c, clen, n, k) : -1;
}

void dl_randombytes_buf(void *buf, size_t size) {
    /* A nonce never comes from anywhere else: without the library, stop rather than reuse. */
    if (!p_random) abort();
    p_random(buf, size);
}

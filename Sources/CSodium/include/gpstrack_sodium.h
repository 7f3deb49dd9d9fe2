#ifndef GPSTRACK_SODIUM_H
#define GPSTRACK_SODIUM_H
/* libsodium (Debian 12: 1.0.18), loaded with dlopen when a secret for OwnTracks' payload
   encryption is configured, so that a box without one maps nothing of it. Only the calls
   OwnTracks' format needs: crypto_secretbox (XSalsa20-Poly1305) and randombytes. */
#include <stddef.h>

/* Loads libsodium.so.23 once and initialises it; 0 on success, else -1 with the reason. */
int gpstrack_sodium_load(char *error, size_t size);

/* crypto_secretbox_easy: c gets mlen + 16 bytes (the MAC, then the ciphertext); 0 on success. */
int dl_crypto_secretbox_easy(unsigned char *c, const unsigned char *m, unsigned long long mlen,
                             const unsigned char *n, const unsigned char *k);
/* crypto_secretbox_open_easy: m gets clen - 16 bytes; -1 when the MAC does not verify. */
int dl_crypto_secretbox_open_easy(unsigned char *m, const unsigned char *c, unsigned long long clen,
                                  const unsigned char *n, const unsigned char *k);
/* randombytes_buf: size random bytes (the nonces). */
void dl_randombytes_buf(void *buf, size_t size);

#endif

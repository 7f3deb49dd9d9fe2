#ifndef GPSTRACK_MOSQUITTO_H
#define GPSTRACK_MOSQUITTO_H
/* libmosquitto (Debian 12: 2.0) and the two OpenSSL calls that say why a TLS handshake failed,
   loaded with dlopen when MQTT is configured, so that a box without MQTT maps neither library
   (nor libcrypto). mosquitto.h gives the types and constants only; every call goes through a
   dl_ wrapper of the same signature. Call gpstrack_mosquitto_load first. */
#include <stddef.h>
#include <stdbool.h>
#include <mosquitto.h>

/* Loads libmosquitto.so.1 (and libssl.so.3 for the TLS diagnosis) once; 0 on success, else -1
   with the loader's reason in `error`. Safe to call again: a success is kept. */
int gpstrack_mosquitto_load(char *error, size_t size);

/* Whether OpenSSL's two calls are there (libssl.so.3 loaded). */
bool gpstrack_openssl_loaded(void);

int dl_mosquitto_lib_init(void);
int dl_mosquitto_lib_cleanup(void);
struct mosquitto *dl_mosquitto_new(const char *id, bool clean_session, void *obj);
void dl_mosquitto_destroy(struct mosquitto *mosq);
void dl_mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int));
void dl_mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int));
void dl_mosquitto_publish_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int));
void dl_mosquitto_log_callback_set(struct mosquitto *mosq, void (*on_log)(struct mosquitto *, void *, int, const char *));
void dl_mosquitto_message_callback_set(struct mosquitto *mosq,
    void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *));
int dl_mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain);
int dl_mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password);
int dl_mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
    const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata));
int dl_mosquitto_threaded_set(struct mosquitto *mosq, bool threaded);
int dl_mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive);
int dl_mosquitto_reconnect_async(struct mosquitto *mosq);
int dl_mosquitto_disconnect(struct mosquitto *mosq);
int dl_mosquitto_loop(struct mosquitto *mosq, int timeout, int max_packets);
int dl_mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos);
int dl_mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload,
    int qos, bool retain);
void *dl_mosquitto_ssl_get(struct mosquitto *mosq);
const char *dl_mosquitto_strerror(int mosq_errno);
const char *dl_mosquitto_connack_string(int connack_code);

/* OpenSSL's SSL_get_verify_result (X509_V_OK, 0, when the peer's certificate verified; -1 when
   libssl is not loaded) and X509_verify_cert_error_string. */
long dl_SSL_get_verify_result(const void *ssl);
const char *dl_X509_verify_cert_error_string(long n);

#endif

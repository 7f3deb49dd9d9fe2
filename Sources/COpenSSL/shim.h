#ifndef GPSTRACK_COPENSSL_SHIM_H
#define GPSTRACK_COPENSSL_SHIM_H
/* OpenSSL (Debian 12: 3.0), only to say why libmosquitto's TLS handshake failed: the broker
   certificate's verification result (SSL_get_verify_result, X509_verify_cert_error_string). */
#include <openssl/ssl.h>
#include <openssl/x509.h>
#endif

#ifndef GPSTRACK_CMOSQUITTO_SHIM_H
#define GPSTRACK_CMOSQUITTO_SHIM_H
/* libmosquitto, the MQTT client library of the mosquitto project (Debian 12: 2.0). */
#include <mosquitto.h>
#endif

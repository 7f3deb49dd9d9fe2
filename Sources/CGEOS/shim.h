#ifndef GPSTRACK_CGEOS_SHIM_H
#define GPSTRACK_CGEOS_SHIM_H
/* GEOS's C API (reentrant *_r functions only). Debian 12 ships GEOS 3.11. */
#include <geos_c.h>
#endif

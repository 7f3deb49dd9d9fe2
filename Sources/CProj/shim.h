#ifndef GPSTRACK_CPROJ_SHIM_H
#define GPSTRACK_CPROJ_SHIM_H
/* PROJ's geodesic API (Karney's algorithms): geod_init, geod_inverse, geod_direct. */
#include <geodesic.h>
#endif

#ifndef GPSTRACK_GEODESIC_H
#define GPSTRACK_GEODESIC_H
/* Geodesics on the WGS84 ellipsoid through GeographicLib (Karney's own C++ library, Debian's
   libgeographiclib-dev), behind a C header so that no Swift module needs C++ interop. */
#ifdef __cplusplus
extern "C" {
#endif

/* The inverse problem from (lat1, lon1) to (lat2, lon2), degrees: the distance in metres and
   the forward azimuths at both points, degrees clockwise from north. Any output may be NULL. */
void gpstrack_geod_inverse(double lat1, double lon1, double lat2, double lon2,
                           double *s12, double *azi1, double *azi2);

/* The direct problem: the point s12 metres from (lat1, lon1) along azi1 degrees. */
void gpstrack_geod_direct(double lat1, double lon1, double azi1, double s12,
                          double *lat2, double *lon2);

#ifdef __cplusplus
}
#endif
#endif

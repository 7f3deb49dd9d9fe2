// The two geodesic problems the tracker needs, over GeographicLib's Geodesic class. Its WGS84
// instance is a function-local static: built once (thread-safe since C++11), read-only after.
#include "gpstrack_geodesic.h"
#include <GeographicLib/Geodesic.hpp>

using GeographicLib::Geodesic;

extern "C" void gpstrack_geod_inverse(double lat1, double lon1, double lat2, double lon2,
                                      double *s12, double *azi1, double *azi2) {
    double s = 0, a1 = 0, a2 = 0;
    if (azi1 || azi2) {
        Geodesic::WGS84().Inverse(lat1, lon1, lat2, lon2, s, a1, a2);
    } else {
        Geodesic::WGS84().Inverse(lat1, lon1, lat2, lon2, s);
    }
    if (s12) *s12 = s;
    if (azi1) *azi1 = a1;
    if (azi2) *azi2 = a2;
}

extern "C" void gpstrack_geod_direct(double lat1, double lon1, double azi1, double s12,
                                     double *lat2, double *lon2) {
    double la = 0, lo = 0;
    Geodesic::WGS84().Direct(lat1, lon1, azi1, s12, la, lo);
    if (lat2) *lat2 = la;
    if (lon2) *lon2 = lo;
}
